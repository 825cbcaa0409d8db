package io.claimedoutbox.adapter.jpa;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A real data source whose next write (an {@code UPDATE} statement run on its own, or a commit)
 * can be made to lose its acknowledgement (the write lands, then the connection "drops") or to
 * fail before it lands, and which can refuse new connections, so tests stage the faults of a real
 * network deterministically.
 */
final class CommitFaultDataSource implements DataSource {

  enum Fault {
    /** The database applies the write, then the client sees the connection drop. */
    ACK_LOST_AFTER_COMMIT,
    /** The connection drops before the write reaches the database. */
    DROPPED_BEFORE_COMMIT
  }

  private final DataSource real;
  private final AtomicReference<Fault> nextCommit = new AtomicReference<>();
  private final AtomicBoolean refuseAfterFault = new AtomicBoolean();
  private final AtomicBoolean refusing = new AtomicBoolean();

  CommitFaultDataSource(DataSource real) {
    this.real = real;
  }

  /** Arms a fault for the next commit; with {@code thenUnreachable} every later connection fails. */
  void failNextCommit(Fault fault, boolean thenUnreachable) {
    refuseAfterFault.set(thenUnreachable);
    nextCommit.set(fault);
  }

  void reachableAgain() {
    refusing.set(false);
  }

  @Override
  public Connection getConnection() throws SQLException {
    if (refusing.get()) {
      throw new SQLException("connection refused (staged by the test)", "08001");
    }
    Connection connection = real.getConnection();
    return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
        (proxy, method, args) -> {
          if (method.getName().equals("commit")) {
            Fault fault = nextCommit.getAndSet(null);
            if (fault != null) {
              return failCommit(connection, fault);
            }
          }
          Object result = invoke(connection, method, args);
          if (method.getName().equals("prepareStatement") && String.valueOf(args[0]).startsWith("UPDATE")) {
            return faultingWrite((PreparedStatement) result);
          }
          return result;
        });
  }

  private Object faultingWrite(PreparedStatement statement) {
    return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {PreparedStatement.class},
        (proxy, method, args) -> {
          boolean executes = method.getName().equals("executeUpdate") || method.getName().equals("executeBatch")
              || method.getName().equals("executeQuery");
          if (executes && statement.getConnection().getAutoCommit()) {
            Fault fault = nextCommit.getAndSet(null);
            if (fault == Fault.ACK_LOST_AFTER_COMMIT) {
              invoke(statement, method, args);
            }
            if (fault != null) {
              refusing.set(refuseAfterFault.get());
              throw new SQLException("connection reset during the write (staged by the test)", "08006");
            }
          }
          return invoke(statement, method, args);
        });
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException thrown) {
      throw thrown.getCause();
    }
  }

  private Object failCommit(Connection connection, Fault fault) throws SQLException {
    if (fault == Fault.ACK_LOST_AFTER_COMMIT) {
      connection.commit();
    } else {
      connection.rollback();
    }
    refusing.set(refuseAfterFault.get());
    throw new SQLException("connection reset during commit (staged by the test)", "08006");
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return getConnection();
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    throw new SQLException("not a wrapper");
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return false;
  }
}
