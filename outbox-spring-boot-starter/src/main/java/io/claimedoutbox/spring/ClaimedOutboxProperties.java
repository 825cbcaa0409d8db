package io.claimedoutbox.spring;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Everything the starter reads, under {@code claimed-outbox}. The defaults are the fast settings
 * the library measures with; most applications set only {@code drain.concurrency}.
 */
@ConfigurationProperties("claimed-outbox")
public class ClaimedOutboxProperties {

  /** The backends the starter can build a store on. */
  public enum Backend {
    /**
     * Pick by what the application has: an EntityManagerFactory, then a Redis URL or client, then a MongoClient,
     * then a DataSource.
     */
    AUTO,
    /** The JPA adapter on the application's EntityManagerFactory (PostgreSQL, MariaDB, H2). */
    JPA,
    /** The SQL store on the application's DataSource, no JPA provider needed (PostgreSQL, MariaDB, H2). */
    JDBC,
    /** The Redis adapter on a Jedis client. */
    REDIS,
    /** The MongoDB adapter on the application's MongoClient. */
    MONGODB
  }

  private Backend backend = Backend.AUTO;
  private boolean storeTime;
  private Duration backlogRefresh = Duration.ofSeconds(15);
  private String metricsPrefix = "outbox";
  private final Redis redis = new Redis();
  private final Mongodb mongodb = new Mongodb();
  private final Schema schema = new Schema();
  private final Drain drain = new Drain();
  private final Retention retention = new Retention();
  private final Health health = new Health();

  /** @return which backend to build the store on */
  public Backend getBackend() {
    return backend;
  }

  /** @param backend which backend to build the store on */
  public void setBackend(Backend backend) {
    this.backend = backend;
  }

  /** @return whether the store reads time from its server instead of this JVM's clock */
  public boolean isStoreTime() {
    return storeTime;
  }

  /** @param storeTime whether the store reads time from its server */
  public void setStoreTime(boolean storeTime) {
    this.storeTime = storeTime;
  }

  /** @return how long one backlog read (counts, oldest due age) serves the gauges and the health check */
  public Duration getBacklogRefresh() {
    return backlogRefresh;
  }

  /** @param backlogRefresh how long one backlog read serves the gauges and the health check */
  public void setBacklogRefresh(Duration backlogRefresh) {
    this.backlogRefresh = backlogRefresh;
  }

  /** @return the prefix of every meter the outbox registers ({@code outbox}: {@code outbox.claim_transition_attempts}…) */
  public String getMetricsPrefix() {
    return metricsPrefix;
  }

  /** @param metricsPrefix the prefix of every meter the outbox registers, without a trailing dot */
  public void setMetricsPrefix(String metricsPrefix) {
    this.metricsPrefix = metricsPrefix;
  }

  /** @return the Redis settings */
  public Redis getRedis() {
    return redis;
  }

  /** @return the MongoDB settings */
  public Mongodb getMongodb() {
    return mongodb;
  }

  /** @return the JPA schema settings */
  public Schema getSchema() {
    return schema;
  }

  /** @return the drain settings */
  public Drain getDrain() {
    return drain;
  }

  /** @return the retention settings */
  public Retention getRetention() {
    return retention;
  }

  /** @return the health settings */
  public Health getHealth() {
    return health;
  }

  /** Redis: where and under which keys. */
  public static class Redis {
    private String url;
    private String keyPrefix = "outbox";
    private int shards = 1;

    /** @return the server, {@code redis://host:port}; when unset, a {@code UnifiedJedis} bean is used */
    public String getUrl() {
      return url;
    }

    /** @param url the server */
    public void setUrl(String url) {
      this.url = url;
    }

    /** @return the key prefix */
    public String getKeyPrefix() {
      return keyPrefix;
    }

    /** @param keyPrefix the key prefix */
    public void setKeyPrefix(String keyPrefix) {
      this.keyPrefix = keyPrefix;
    }

    /** @return the shard count (more than one on a Redis Cluster) */
    public int getShards() {
      return shards;
    }

    /** @param shards the shard count */
    public void setShards(int shards) {
      this.shards = shards;
    }
  }

  /** MongoDB: where. */
  public static class Mongodb {
    private String database = "outbox";
    private String collection = "outbox_entries";

    /** @return the database */
    public String getDatabase() {
      return database;
    }

    /** @param database the database */
    public void setDatabase(String database) {
      this.database = database;
    }

    /** @return the collection */
    public String getCollection() {
      return collection;
    }

    /** @param collection the collection */
    public void setCollection(String collection) {
      this.collection = collection;
    }
  }

  /** The JPA table {@code outbox_entry} and its indexes. */
  public static class Schema {

    /** What runs the outbox's migrations. */
    public enum Tool {
      /** Flyway when it is on the classpath, else Liquibase when it is, else nothing (the start-up check only). */
      AUTO,
      /** Flyway, with the history table {@code history-table}. */
      FLYWAY,
      /** Liquibase, with the changelog table {@code changelog-table}. */
      LIQUIBASE
    }

    /** Whether the starter creates the outbox's schema itself when no migration tool runs. */
    public enum Initialize {
      /** Always: what is missing of the table and its indexes is created at start (idempotent). */
      ALWAYS,
      /** Only on an embedded database (H2); elsewhere the start checks the table and says what to run. */
      EMBEDDED,
      /** Never: the start checks the table and says what to run. */
      NEVER
    }

    private boolean migrate = true;
    private Initialize initialize = Initialize.EMBEDDED;
    private Tool tool = Tool.AUTO;
    private String historyTable = "claimed_outbox_schema_history";
    private String changelogTable = "claimed_outbox_changelog";

    /**
     * @return whether the starter creates the outbox's table and indexes itself (from the adapter's own DDL,
     *     creating only what is missing) when neither Flyway nor Liquibase runs the outbox's migrations
     */
    public Initialize getInitialize() {
      return initialize;
    }

    /** @param initialize whether the starter creates the schema itself */
    public void setInitialize(Initialize initialize) {
      this.initialize = initialize;
    }

    /** @return what runs the outbox's migrations */
    public Tool getTool() {
      return tool;
    }

    /** @param tool what runs the outbox's migrations */
    public void setTool(Tool tool) {
      this.tool = tool;
    }

    /** @return the Liquibase changelog table of the outbox's changesets (its lock table adds {@code _lock}) */
    public String getChangelogTable() {
      return changelogTable;
    }

    /** @param changelogTable the Liquibase changelog table */
    public void setChangelogTable(String changelogTable) {
      this.changelogTable = changelogTable;
    }

    /**
     * @return whether, when Flyway or Liquibase is on the classpath, the starter runs the outbox's own
     *     migrations at start (in a history or changelog table of their own, so they never meet the
     *     application's); without either, or with this off, the start checks that the table and its
     *     indexes exist
     */
    public boolean isMigrate() {
      return migrate;
    }

    /** @param migrate whether to run the outbox's migrations */
    public void setMigrate(boolean migrate) {
      this.migrate = migrate;
    }

    /** @return the Flyway history table of the outbox's migrations */
    public String getHistoryTable() {
      return historyTable;
    }

    /** @param historyTable the Flyway history table */
    public void setHistoryTable(String historyTable) {
      this.historyTable = historyTable;
    }
  }

  /** The drain: started after the context when the application defines an {@code OutboxMessageHandler} bean. */
  public static class Drain {
    private boolean enabled = true;
    private String handler;
    private String workerId;
    private int concurrency = 4;
    private int batchSize = 500;
    private Duration lease = Duration.ofSeconds(30);
    private Duration shutdownTimeout = Duration.ofSeconds(30);
    private Duration initialBackoff = Duration.ofSeconds(1);
    private Duration maxBackoff = Duration.ofMinutes(5);
    private int maxAttempts = 10;

    /** @return whether to run a drain */
    public boolean isEnabled() {
      return enabled;
    }

    /** @param enabled whether to run a drain */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /**
     * @return the bean name of the drain's handler, needed only when several {@code OutboxMessageHandler}
     *     beans exist and none is {@code @Primary}
     */
    public String getHandler() {
      return handler;
    }

    /** @param handler the bean name of the drain's handler */
    public void setHandler(String handler) {
      this.handler = handler;
    }

    /** @return this process's worker id; default the host name and a random suffix */
    public String getWorkerId() {
      return workerId;
    }

    /** @param workerId this process's worker id */
    public void setWorkerId(String workerId) {
      this.workerId = workerId;
    }

    /** @return handlers at once */
    public int getConcurrency() {
      return concurrency;
    }

    /** @param concurrency handlers at once */
    public void setConcurrency(int concurrency) {
      this.concurrency = concurrency;
    }

    /** @return entries per claim */
    public int getBatchSize() {
      return batchSize;
    }

    /** @param batchSize entries per claim */
    public void setBatchSize(int batchSize) {
      this.batchSize = batchSize;
    }

    /** @return the lease of a claim */
    public Duration getLease() {
      return lease;
    }

    /** @param lease the lease of a claim */
    public void setLease(Duration lease) {
      this.lease = lease;
    }

    /** @return how long a stop waits for running handlers */
    public Duration getShutdownTimeout() {
      return shutdownTimeout;
    }

    /** @param shutdownTimeout how long a stop waits for running handlers */
    public void setShutdownTimeout(Duration shutdownTimeout) {
      this.shutdownTimeout = shutdownTimeout;
    }

    /** @return the first retry's delay */
    public Duration getInitialBackoff() {
      return initialBackoff;
    }

    /** @param initialBackoff the first retry's delay */
    public void setInitialBackoff(Duration initialBackoff) {
      this.initialBackoff = initialBackoff;
    }

    /** @return the longest retry delay */
    public Duration getMaxBackoff() {
      return maxBackoff;
    }

    /** @param maxBackoff the longest retry delay */
    public void setMaxBackoff(Duration maxBackoff) {
      this.maxBackoff = maxBackoff;
    }

    /** @return attempts before an entry is dead-lettered */
    public int getMaxAttempts() {
      return maxAttempts;
    }

    /** @param maxAttempts attempts before an entry is dead-lettered */
    public void setMaxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
    }
  }

  /** Retention: purge finished entries once old enough. */
  public static class Retention {
    private boolean enabled = true;
    private Duration keepFinishedFor = Duration.ofDays(7);
    private int batchSize = 1_000;
    private Duration every = Duration.ofMinutes(1);

    /** @return whether to run the retention job */
    public boolean isEnabled() {
      return enabled;
    }

    /** @param enabled whether to run the retention job */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** @return how long delivered and dead-lettered entries stay */
    public Duration getKeepFinishedFor() {
      return keepFinishedFor;
    }

    /** @param keepFinishedFor how long delivered and dead-lettered entries stay */
    public void setKeepFinishedFor(Duration keepFinishedFor) {
      this.keepFinishedFor = keepFinishedFor;
    }

    /** @return entries per delete */
    public int getBatchSize() {
      return batchSize;
    }

    /** @param batchSize entries per delete */
    public void setBatchSize(int batchSize) {
      this.batchSize = batchSize;
    }

    /** @return the pause between runs */
    public Duration getEvery() {
      return every;
    }

    /** @param every the pause between runs */
    public void setEvery(Duration every) {
      this.every = every;
    }
  }

  /** The health indicator. */
  public static class Health {
    private Duration maxOldestDueAge;

    /** @return the oldest due entry's wait above which the outbox reports DOWN; unset: never for age */
    public Duration getMaxOldestDueAge() {
      return maxOldestDueAge;
    }

    /** @param maxOldestDueAge the wait above which the outbox reports DOWN */
    public void setMaxOldestDueAge(Duration maxOldestDueAge) {
      this.maxOldestDueAge = maxOldestDueAge;
    }
  }
}
