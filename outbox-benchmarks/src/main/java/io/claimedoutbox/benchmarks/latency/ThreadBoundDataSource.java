package io.claimedoutbox.benchmarks.latency;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source that hands out the connection of the transaction open on the calling thread, when
 * there is one (as Spring's transaction-aware proxy does), so a library that asks a
 * {@code DataSource} for its connection writes in the caller's transaction; closing that handle
 * leaves the connection open. Other threads get pool connections.
 */
final class ThreadBoundDataSource implements DataSource {

  private final DataSource pool;
  private final ThreadLocal<Connection> bound = new ThreadLocal<>();

  ThreadBoundDataSource(DataSource pool) {
    this.pool = pool;
  }

  /** Binds {@code connection} to the calling thread until {@link #unbind}. */
  void bind(Connection connection) {
    bound.set(connection);
  }

  void unbind() {
    bound.remove();
  }

  @Override
  public Connection getConnection() throws SQLException {
    Connection connection = bound.get();
    if (connection == null) {
      return pool.getConnection();
    }
    return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
        (proxy, method, args) -> {
          if (method.getName().equals("close") || method.getName().equals("commit")) {
            return null;
          }
          try {
            return method.invoke(connection, args);
          } catch (InvocationTargetException failure) {
            throw failure.getCause();
          }
        });
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return getConnection();
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return pool.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    pool.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    pool.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return pool.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return pool.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    return pool.unwrap(type);
  }

  @Override
  public boolean isWrapperFor(Class<?> type) throws SQLException {
    return pool.isWrapperFor(type);
  }
}
