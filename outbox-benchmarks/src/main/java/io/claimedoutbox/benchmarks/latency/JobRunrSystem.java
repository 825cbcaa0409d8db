package io.claimedoutbox.benchmarks.latency;

import io.claimedoutbox.benchmarks.BenchDatabase;
import java.sql.Connection;
import org.jobrunr.configuration.JobRunr;
import org.jobrunr.configuration.JobRunrConfiguration.JobRunrConfigurationResult;
import org.jobrunr.scheduling.JobScheduler;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.storage.sql.common.SqlStorageProviderFactory;
import org.jobrunr.utils.mapper.jackson3.Jackson3JsonMapper;

/**
 * JobRunr 8.7.0 (open source) as a team uses it for "do this after the order is placed": a
 * background job server with its defaults (poll every 15 s, workers per core) on the same
 * database, and {@code enqueue} of one job per entry. Open-source JobRunr stores the job on a
 * connection of its own, so it cannot join the business transaction (JobRunr Pro can): the producer
 * enqueues right after its commit, which is what such a team writes, and a crash between the two
 * loses the job. The job server is kept between rows with nothing left to do: jobs left from a row
 * that fell behind are deleted when the row ends, and what it was running meanwhile reports nowhere.
 */
final class JobRunrSystem implements LatencySystem {

  /** The job's target, which JobRunr's activator hands it; it reports to the current recording. */
  public static final class Delivery {
    private volatile Recording recording = new Recording(1);

    /** @param sequence the entry's number */
    public void deliver(long sequence) {
      recording.handlerStarted(sequence);
    }
  }

  private static final String[] TABLES = {"jobrunr_jobs", "jobrunr_recurring_jobs", "jobrunr_backgroundjobservers",
      "jobrunr_metadata", "jobrunr_migrations"};

  private final BenchDatabase database;
  private final Delivery delivery = new Delivery();
  private JobScheduler scheduler;

  JobRunrSystem(BenchDatabase database) throws Exception {
    this.database = database;
    dropTables();
  }

  @Override
  public java.time.Duration pollInterval() {
    return java.time.Duration.ofSeconds(15);
  }

  @Override
  public String name() {
    return "JobRunr 8.7.0 (defaults, enqueue after commit)";
  }

  @Override
  public void start(Recording recording) throws Exception {
    if (scheduler == null) {
      JobRunrConfigurationResult configured = JobRunr.configure()
          .useJsonMapper(new Jackson3JsonMapper())
          .useJobActivator(new org.jobrunr.server.JobActivator() {
            @Override
            public <T> T activateJob(Class<T> type) {
              return type.cast(delivery);
            }
          })
          // JobRunr looks for its tables in every schema it can see; this run's are in its own
          .useStorageProvider(SqlStorageProviderFactory.using(database.dataSource(), database.namespace() + "."))
          .useBackgroundJobServer(BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration())
          .initialize();
      scheduler = configured.getJobScheduler();
    }
    database.execute("DELETE FROM jobrunr_jobs");
    delivery.recording = recording;
  }

  @Override
  public void produce(long sequence) throws Exception {
    try (Connection connection = database.dataSource().getConnection()) {
      connection.setAutoCommit(false);
      try {
        BusinessTable.insert(connection, sequence);
        connection.commit();
      } catch (Exception failure) {
        connection.rollback();
        throw failure;
      } finally {
        connection.setAutoCommit(true);
      }
    }
    scheduler.<Delivery>enqueue(target -> target.deliver(sequence));
  }

  @Override
  public void stop() throws Exception {
    delivery.recording = new Recording(1);
    database.execute("DELETE FROM jobrunr_jobs");
  }

  @Override
  public void close() throws Exception {
    if (scheduler != null) {
      JobRunr.destroy();
      scheduler = null;
    }
    dropTables();
  }

  /** The run's namespace is dropped at its end; this leaves it as the other systems leave it. */
  private void dropTables() throws Exception {
    database.execute("DROP VIEW IF EXISTS jobrunr_jobs_stats");
    for (String table : TABLES) {
      database.execute("DROP TABLE IF EXISTS " + table);
    }
  }
}
