package io.claimedoutbox.benchmarks;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * db-scheduler as a team would use it for an outbox: one one-time task instance per entry, drained
 * by a scheduler with {@code workers} threads and the lock-and-fetch poll strategy its docs advise
 * for throughput on PostgreSQL. A finished one-time execution is deleted.
 */
final class DbSchedulerContender implements Contender {

  private static final String TABLE = """
      CREATE TABLE scheduled_tasks (
        task_name text NOT NULL,
        task_instance text NOT NULL,
        task_data bytea,
        execution_time timestamp with time zone NOT NULL,
        picked BOOLEAN NOT NULL,
        picked_by text,
        last_success timestamp with time zone,
        last_failure timestamp with time zone,
        consecutive_failures INT,
        last_heartbeat timestamp with time zone,
        version BIGINT NOT NULL,
        priority SMALLINT,
        PRIMARY KEY (task_name, task_instance))""";

  private final BenchDatabase database;
  private final Duration timeout;
  private volatile Handled current;
  private final OneTimeTask<Void> task = Tasks.oneTime("outbox-entry")
      .execute((instance, context) -> current.delivered(instance.getId()));

  DbSchedulerContender(BenchDatabase database, Duration timeout) throws Exception {
    this.database = database;
    this.timeout = timeout;
    database.execute("DROP TABLE IF EXISTS scheduled_tasks");
    database.execute(TABLE);
    database.execute("CREATE INDEX execution_time_idx ON scheduled_tasks (execution_time)");
    database.execute("CREATE INDEX last_heartbeat_idx ON scheduled_tasks (last_heartbeat)");
    database.execute("CREATE INDEX priority_execution_time_idx ON scheduled_tasks (priority DESC, execution_time ASC)");
  }

  @Override
  public String name() {
    return "db-scheduler 16.12.0 (lock-and-fetch)";
  }

  @Override
  public String backend() {
    return database.name();
  }

  @Override
  public void seed(int entries) throws Exception {
    database.execute("TRUNCATE scheduled_tasks");
    database.execute("VACUUM ANALYZE scheduled_tasks");
    SchedulerClient client = SchedulerClient.Builder.create(database.dataSource(), task).build();
    Instant due = Instant.now().minusSeconds(1);
    List<TaskInstance<?>> batch = new ArrayList<>(1000);
    for (int i = 0; i < entries; i++) {
      batch.add(task.instance(Integer.toString(i)));
      if (batch.size() == 1000 || i == entries - 1) {
        client.scheduleBatch(batch, due);
        batch.clear();
      }
    }
  }

  @Override
  public void drain(int workers, Handled handled) throws Exception {
    current = handled;
    Scheduler scheduler = Scheduler.create(database.dataSource(), task)
        .threads(workers)
        .pollUsingLockAndFetch(0.5, 1.0)
        .pollingInterval(Duration.ofMillis(100))
        .build();
    scheduler.start();
    try {
      handled.await(timeout);
    } finally {
      scheduler.stop();
    }
  }

  @Override
  public long undone() throws Exception {
    return database.count("SELECT COUNT(*) FROM scheduled_tasks");
  }

  @Override
  public void close() throws Exception {
    database.execute("DROP TABLE IF EXISTS scheduled_tasks");
  }
}
