package io.claimedoutbox.benchmarks;

import java.time.Duration;
import java.util.stream.IntStream;
import org.jobrunr.jobs.mappers.JobMapper;
import org.jobrunr.scheduling.JobScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.server.JobActivator;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.storage.sql.common.SqlStorageProviderFactory;
import org.jobrunr.utils.mapper.JsonMapper;
import org.jobrunr.utils.mapper.jackson3.Jackson3JsonMapper;

/**
 * JobRunr 8.7.0 (open source) as a team drains a backlog of "after the order" jobs with it: one job
 * per entry, enqueued in bulk ({@code enqueue(Stream, …)}) with no job server running, then a
 * background job server with {@code workers} workers and the shortest poll interval it allows
 * (5 s; its default is 15 s) started and stopped around the timed drain.
 */
final class JobRunrContender implements Contender {

  /** The job's target, handed to JobRunr by the activator. */
  public static final class Delivery {
    private volatile Handled current;

    /** @param id the entry's number */
    public void deliver(int id) {
      current.delivered(Integer.toString(id));
    }
  }

  private final BenchDatabase database;
  private final Duration timeout;
  private final Delivery delivery = new Delivery();
  private final JsonMapper json = new Jackson3JsonMapper();
  private final StorageProvider storage;
  private final JobScheduler scheduler;

  JobRunrContender(BenchDatabase database, Duration timeout) {
    this.database = database;
    this.timeout = timeout;
    // JobRunr looks for its tables in every schema it can see; this run's are in its own
    this.storage = SqlStorageProviderFactory.using(database.dataSource(), database.namespace() + ".");
    storage.setJobMapper(new JobMapper(json));
    this.scheduler = new JobScheduler(storage);
  }

  @Override
  public String name() {
    return "JobRunr 8.7.0 (poll 5 s)";
  }

  @Override
  public String backend() {
    return database.name();
  }

  @Override
  public void seed(int entries) throws Exception {
    database.execute("DELETE FROM jobrunr_jobs");
    scheduler.<Delivery, Integer>enqueue(IntStream.range(0, entries).boxed(), (target, id) -> target.deliver(id));
  }

  @Override
  public void drain(int workers, Handled handled) throws Exception {
    delivery.current = handled;
    BackgroundJobServer server = new BackgroundJobServer(storage, json, new JobActivator() {
      @Override
      public <T> T activateJob(Class<T> type) {
        return type.cast(delivery);
      }
    }, BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration()
        .andWorkerCount(workers).andPollInterval(Duration.ofSeconds(5)));
    server.start();
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      handled.await(timeout);
      // as for our drain, the run ends when the results are written, not when the handlers returned
      while (undone() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
    } finally {
      server.stop();
    }
  }

  @Override
  public long undone() throws Exception {
    return database.count("SELECT COUNT(*) FROM jobrunr_jobs WHERE state <> 'SUCCEEDED'");
  }

  /** The run's namespace, JobRunr's tables with it, is dropped when the database closes. */
  @Override
  public void close() {
    storage.close();
  }
}
