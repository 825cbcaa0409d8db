package io.claimedoutbox.benchmarks.latency;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import io.claimedoutbox.benchmarks.BenchDatabase;
import java.sql.Connection;
import java.time.Instant;

/**
 * db-scheduler with immediate execution, as its docs advise for work due now: one one-time task
 * instance per entry, scheduled in the business transaction (its {@code DataSource} hands out the
 * transaction's connection, as Spring's transaction-aware proxy would), default polling otherwise.
 * With {@code triggerAfterCommit} the producer also calls {@code triggerCheckForDueExecutions()}
 * after its commit — what a user adds because the immediate check runs before the commit.
 */
final class DbSchedulerSystem implements LatencySystem {

  private static final String POSTGRESQL_TABLE = """
      CREATE TABLE scheduled_tasks (
        task_name text NOT NULL, task_instance text NOT NULL, task_data bytea,
        execution_time timestamp with time zone NOT NULL, picked BOOLEAN NOT NULL, picked_by text,
        last_success timestamp with time zone, last_failure timestamp with time zone,
        consecutive_failures INT, last_heartbeat timestamp with time zone, version BIGINT NOT NULL,
        priority SMALLINT, PRIMARY KEY (task_name, task_instance))""";
  private static final String MARIADB_TABLE = """
      CREATE TABLE scheduled_tasks (
        task_name varchar(100) NOT NULL, task_instance varchar(100) NOT NULL, task_data blob,
        execution_time timestamp(6) NOT NULL, picked BOOLEAN NOT NULL, picked_by varchar(50),
        last_success timestamp(6) NULL, last_failure timestamp(6) NULL, consecutive_failures INT,
        last_heartbeat timestamp(6) NULL, version BIGINT NOT NULL, priority SMALLINT,
        PRIMARY KEY (task_name, task_instance))""";

  private final BenchDatabase database;
  private final boolean triggerAfterCommit;
  private final ThreadBoundDataSource dataSource;
  private volatile Recording recording;
  private final OneTimeTask<Void> task = Tasks.oneTime("outbox-entry")
      .execute((instance, context) -> recording.handlerStarted(Long.parseLong(instance.getId())));
  private Scheduler scheduler;

  DbSchedulerSystem(BenchDatabase database, boolean triggerAfterCommit) throws Exception {
    this.database = database;
    this.triggerAfterCommit = triggerAfterCommit;
    this.dataSource = new ThreadBoundDataSource(database.dataSource());
    database.execute("DROP TABLE IF EXISTS scheduled_tasks");
    database.execute(database.isPostgreSql() ? POSTGRESQL_TABLE : MARIADB_TABLE);
    database.execute("CREATE INDEX execution_time_idx ON scheduled_tasks (execution_time)");
    database.execute("CREATE INDEX last_heartbeat_idx ON scheduled_tasks (last_heartbeat)");
  }

  @Override
  public java.time.Duration pollInterval() {
    return java.time.Duration.ofSeconds(10);
  }

  @Override
  public String name() {
    return "db-scheduler 16.12.0 (immediate execution" + (triggerAfterCommit ? " + trigger after commit)" : ")");
  }

  @Override
  public void start(Recording value) throws Exception {
    recording = value;
    database.execute("DELETE FROM scheduled_tasks");
    scheduler = Scheduler.create(dataSource, task).threads(4).enableImmediateExecution().build();
    scheduler.start();
  }

  @Override
  public void produce(long sequence) throws Exception {
    try (Connection connection = database.dataSource().getConnection()) {
      connection.setAutoCommit(false);
      dataSource.bind(connection);
      try {
        BusinessTable.insert(connection, sequence);
        scheduler.schedule(task.instance(Long.toString(sequence)), Instant.now());
        connection.commit();
      } catch (Exception failure) {
        connection.rollback();
        throw failure;
      } finally {
        dataSource.unbind();
        connection.setAutoCommit(true);
      }
    }
    if (triggerAfterCommit) {
      scheduler.triggerCheckForDueExecutions();
    }
  }

  @Override
  public void stop() throws Exception {
    if (scheduler != null) {
      scheduler.stop();
      scheduler = null;
      database.execute("DELETE FROM scheduled_tasks");
    }
  }

  @Override
  public void close() throws Exception {
    stop();
    database.execute("DROP TABLE IF EXISTS scheduled_tasks");
  }
}
