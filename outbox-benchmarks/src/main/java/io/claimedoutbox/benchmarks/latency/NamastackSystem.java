package io.claimedoutbox.benchmarks.latency;

import io.claimedoutbox.benchmarks.BenchDatabase;
import io.claimedoutbox.benchmarks.NamastackContext;
import io.namastack.outbox.Outbox;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * namastack-outbox 1.6.0 in its Spring Boot context ({@link NamastackContext}): {@code
 * outbox.schedule(payload, key)} in the business transaction, one typed handler bean. Each entry gets
 * its own key, as an order id would. Two settings: its defaults (fixed polling every 2 s, 10 keys
 * per cycle) and a tuned one a team chasing latency would write (every 100 ms, 100 keys per cycle),
 * on tables of its own ({@code tuned_} prefix) so the two contexts never take each other's records.
 */
final class NamastackSystem implements LatencySystem {

  private static final String[] TABLES = {"outbox_record", "outbox_instance", "outbox_partition"};

  private final BenchDatabase database;
  private final String label;
  private final Map<String, Object> settings;
  private final Duration pollInterval;
  private volatile Recording recording = new Recording(1);
  private NamastackContext context;
  private JdbcTemplate jdbc;

  private NamastackSystem(BenchDatabase database, String label, Map<String, Object> settings, Duration pollInterval)
      throws Exception {
    this.database = database;
    this.label = label;
    this.settings = settings;
    this.pollInterval = pollInterval;
    dropTables();
  }

  /** @return namastack with every setting at its default */
  static NamastackSystem withDefaults(BenchDatabase database) throws Exception {
    return new NamastackSystem(database, "defaults", Map.of(), Duration.ofSeconds(2));
  }

  /** @return namastack polling every 100 ms for up to 100 keys */
  static NamastackSystem tuned(BenchDatabase database) throws Exception {
    return new NamastackSystem(database, "poll 100 ms, 100 keys", Map.of(
        "namastack.outbox.polling.fixed.interval", "100ms",
        "namastack.outbox.polling.batch-size", "100",
        "namastack.outbox.jdbc.table-prefix", "tuned_",
        "namastack.outbox.jdbc.schema-initialization.enabled", "false"), Duration.ofMillis(100));
  }

  private String table(String name) {
    return settings.getOrDefault("namastack.outbox.jdbc.table-prefix", "") + name;
  }

  /**
   * namastack creates its tables only without a prefix; with one, a user runs its schema script
   * with the names changed, as this does with the script from its jar.
   */
  private void createPrefixedTables() throws Exception {
    String prefix = table("");
    String dialect = database.isPostgreSql() ? "postgres" : "mariadb";
    String script;
    try (var in = Outbox.class.getClassLoader().getResourceAsStream("schema/" + dialect + "/outbox-tables.sql")) {
      script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    for (String statement : script.replace(" outbox_", " " + prefix + "outbox_")
        .replace("idx_outbox_", "idx_" + prefix + "outbox_").split(";")) {
      if (!statement.isBlank()) {
        database.execute(statement);
      }
    }
  }

  @Override
  public Duration pollInterval() {
    return pollInterval;
  }

  @Override
  public String name() {
    return "namastack-outbox 1.6.0 (" + label + ")";
  }

  @Override
  public void start(Recording value) throws Exception {
    if (context == null) {
      if (!table("").isEmpty()) {
        createPrefixedTables();
      }
      context = NamastackContext.start(database.dataSource(), settings, sequence -> recording.handlerStarted(sequence));
      jdbc = new JdbcTemplate(database.dataSource());
    }
    database.execute("DELETE FROM " + table("outbox_record"));
    recording = value;
  }

  @Override
  public void produce(long sequence) {
    context.transactions().executeWithoutResult(status -> {
      jdbc.update(BusinessTable.INSERT, "order " + sequence);
      context.outbox().schedule(new NamastackContext.EntryPayload(sequence), "order-" + sequence);
    });
  }

  /**
   * Keeps the context between rows (its start-up, schema and partition assignment are not part of
   * a measurement) with nothing left to do: entries still pending from a row that fell behind are
   * deleted, and what it was handling meanwhile reports to a recording nobody reads.
   */
  @Override
  public void stop() throws Exception {
    recording = new Recording(1);
    database.execute("DELETE FROM " + table("outbox_record"));
  }

  @Override
  public void close() throws Exception {
    if (context != null) {
      context.close();
      context = null;
    }
    dropTables();
  }

  private void dropTables() throws Exception {
    for (String table : TABLES) {
      database.execute("DROP TABLE IF EXISTS " + table(table));
    }
  }
}
