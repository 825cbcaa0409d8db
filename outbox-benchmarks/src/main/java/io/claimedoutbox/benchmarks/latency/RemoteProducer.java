package io.claimedoutbox.benchmarks.latency;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.JpaOutbox;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.redis.RedisOutboxStore;
import io.claimedoutbox.domain.OutboxMessage;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hibernate.Session;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;

/**
 * The producers of the other-JVM case, in a process of their own: they commit business
 * transactions with appends through a store object of this process (no drain here), after the
 * benchmark's untimed warm-up, and write each entry's commit time ({@code System.nanoTime()}, the
 * machine's monotonic clock) to a file the benchmark reads.
 *
 * <pre>
 * java -cp outbox-benchmarks.jar io.claimedoutbox.benchmarks.latency.RemoteProducer
 *     --backend postgresql|mariadb|redis --url JDBC-URL|host:port --rate N --seconds N --out FILE
 *     [--producer jpa|jdbc]
 * </pre>
 */
public final class RemoteProducer {

  private RemoteProducer() {}

  /**
   * Produces, then exits.
   *
   * @param args see the class comment
   * @throws Exception when the backend fails
   */
  public static void main(String[] args) throws Exception {
    Map<String, String> options = LatencyBenchmark.options(args);
    int rate = Integer.parseInt(options.get("rate"));
    int seconds = Integer.parseInt(options.get("seconds"));
    Recording recording = new Recording(rate * seconds);
    String backend = options.get("backend");
    boolean jpa = !options.getOrDefault("producer", "jpa").equals("jdbc");
    try (LatencySystem producer = backend.equals("redis") ? redis(options.get("url")) : sql(options.get("url"), jpa)) {
      // a producing service runs warm: its JIT and pool ready before the timed run
      LatencyBenchmark.produceWarmUp(producer);
      SteadyProducers.Produced produced = SteadyProducers.run(producer, recording, rate, seconds);
      try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(options.get("out"))))) {
        out.println("achieved " + produced.achievedPerSecond());
        recording.writeCommits(out, produced.entries());
      }
    }
    System.exit(0);
  }

  private static LatencySystem sql(String url, boolean jpa) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(8);
    if (url.startsWith("jdbc:mariadb:")) {
      config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    }
    HikariDataSource pool = new HikariDataSource(config);
    EntityManagerFactory factory = JpaOutbox.entityManagerFactory(pool, Map.of());
    JpaOutboxStore store = JpaOutboxStore.builder(factory).build();
    if (!jpa) {
      return new ProducerOnly(sequence -> BusinessTable.commitWithEntry(pool, store, sequence), () -> {
        factory.close();
        pool.close();
      });
    }
    ThreadLocal<EntityManager> entityManagers = ThreadLocal.withInitial(factory::createEntityManager);
    return new ProducerOnly(sequence -> {
      EntityManager em = entityManagers.get();
      em.getTransaction().begin();
      try {
        em.unwrap(Session.class).doWork(connection -> BusinessTable.insert(connection, sequence));
        store.appendWithin(em, List.of(OutboxMessage.of("order-placed", BusinessTable.payload(sequence))));
        em.getTransaction().commit();
      } finally {
        // a failed transaction must give its connection back, or the pool runs dry and the run hangs
        if (em.getTransaction().isActive()) {
          em.getTransaction().rollback();
        }
      }
    }, () -> {
      factory.close();
      pool.close();
    });
  }

  private static LatencySystem redis(String server) {
    JedisPooled client = new JedisPooled(HostAndPort.from(server));
    RedisOutboxStore store = RedisOutboxStore.builder(client).keyPrefix(OursOnRedis.PREFIX).build();
    return new ProducerOnly(
        sequence -> store.append(OutboxMessage.of("order-placed", BusinessTable.payload(sequence))), client::close);
  }

  /** Producers without a relay. */
  private record ProducerOnly(Production production, Runnable closing) implements LatencySystem {

    @FunctionalInterface
    interface Production {
      void produce(long sequence) throws Exception;
    }

    @Override
    public String name() {
      return "producer";
    }

    /** It relays nothing, so it never waits for a poll. */
    @Override
    public java.time.Duration pollInterval() {
      return java.time.Duration.ZERO;
    }

    @Override
    public void start(Recording recording) {}

    @Override
    public void produce(long sequence) throws Exception {
      production.produce(sequence);
    }

    @Override
    public void stop() {
      closing.run();
    }
  }
}
