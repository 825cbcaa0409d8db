package io.claimedoutbox.benchmarks;

import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What PostgreSQL itself gives a keyed drain: the store work of our drain's keyed cycle — probe each
 * key's first unfinished entry, claim it (a conditional row write), deliver it (another) — run
 * straight from JDBC on the real {@code outbox_entry} table, with no drain around it: no handler
 * threads, no kernel, no waiting for a call in flight. Keys are split over {@code lanes}, each lane a
 * connection running its keys' cycles one after another, so a key never has two entries in flight
 * (the contract's order). Three shapes, each checked to leave nothing undelivered:
 *
 * <ul>
 *   <li>{@code separate}: the drain's shape today, three statements a cycle (probe, claim, deliver);
 *   <li>{@code merged}: one statement a cycle — deliver, claim each delivered key's successor (read
 *       the cycle before, at its revision) and read the next successor — the shape a store call
 *       "record and claim next" would have;
 *   <li>{@code unkeyed}: the same two row writes per entry without keys (a claim of up to 500 due
 *       entries, deliveries of 250), for comparison.
 * </ul>
 *
 * <pre>
 * java -cp outbox-benchmarks/target/outbox-benchmarks.jar io.claimedoutbox.benchmarks.KeyedCycleEmulation
 *     [--entries 20000] [--keys 100] [--lanes 1,2,3] [--shapes separate,merged,unkeyed] [--rounds 3]
 *     [--postgresql URL]
 * </pre>
 */
public final class KeyedCycleEmulation {

  private static final String CLAIM = "status = 'CLAIMED', attempts = e.attempts + 1, updated_at = now(),"
      + " claim_generation = e.claim_generation + 1, claim_owner = 'emulation', token_nonce = v.token,"
      + " claimed_at = now(), lease_until = now() + interval '30 seconds', due_at = now() + interval '30 seconds',"
      + " write_stamp = v.token, revision = e.revision + 1";
  private static final String DELIVER = "status = 'DELIVERED', updated_at = now(), due_at = NULL, claim_owner = NULL,"
      + " token_nonce = NULL, claimed_at = NULL, lease_until = NULL, write_stamp = v.token, revision = e.revision + 1";
  private static final String ROWS = " FROM unnest(?::varchar[], ?::bigint[], ?::varchar[]) AS v(id, revision, token)";
  private static final String CLAIM_ROWS = "UPDATE outbox_entry e SET " + CLAIM + ROWS
      + " WHERE e.id = v.id AND e.revision = v.revision RETURNING e.id, e.revision";
  private static final String DELIVER_ROWS = "UPDATE outbox_entry e SET " + DELIVER + ROWS
      + " WHERE e.id = v.id AND e.revision = v.revision AND e.status = 'CLAIMED' RETURNING e.id";
  private static final String COLUMNS = "e.id, e.ordering_key, e.payload, e.headers, e.status, e.attempts,"
      + " e.created_at, e.available_at, e.claim_generation, e.revision";
  private static final String FIRST_OF_KEY = " FROM outbox_entry e WHERE e.ordering_key = k.key AND e.due_at IS NOT NULL"
      + " ORDER BY e.created_at, e.id LIMIT ";
  private static final String HEADS = "SELECT h.* FROM unnest(?::text[]) AS k(key) CROSS JOIN LATERAL (SELECT "
      + COLUMNS + FIRST_OF_KEY;

  private static final List<String> SHAPES = List.of("separate", "merged", "unkeyed");

  private KeyedCycleEmulation() {}

  /**
   * Runs every shape at every lane count, interleaved, and prints one line each.
   *
   * @param args see the class comment
   * @throws Exception when PostgreSQL is unreachable or a shape leaves entries undelivered
   */
  public static void main(String[] args) throws Exception {
    Map<String, String> options = DrainBenchmark.options(args);
    int entries = positive("entries", options.getOrDefault("entries", "20000"));
    int keys = positive("keys", options.getOrDefault("keys", "100"));
    int rounds = positive("rounds", options.getOrDefault("rounds", "3"));
    List<String> shapes = List.of(options.getOrDefault("shapes", "separate,merged,unkeyed").split(","));
    List<Integer> laneCounts = List.of(options.getOrDefault("lanes", "1,2,3").split(",")).stream()
        .map(lanes -> positive("lanes", lanes)).toList();
    String url = options.getOrDefault("postgresql", DrainBenchmark.env("OUTBOX_POSTGRESQL_URL",
        "jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres"));
    for (String shape : shapes) {
      if (!SHAPES.contains(shape)) {
        throw new IllegalArgumentException("--shapes takes " + String.join(", ", SHAPES) + "; got " + shape);
      }
    }
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("--postgresql must name a PostgreSQL database, was " + url);
    }
    try (BenchDatabase database = new BenchDatabase(url);
        JpaTestKit schema = JpaTestKit.create(database.dataSource(), database.database(), database.name())) {
      for (int round = 1; round <= rounds; round++) {
        for (int lanes : laneCounts) {
          for (String shape : shapes) {
            System.out.println("round " + round + "  " + run(database, shape, entries, keys, lanes));
          }
        }
      }
    }
  }

  /** A whole number above zero, or an exception naming the option, before anything runs. */
  private static int positive(String option, String value) {
    try {
      int number = Integer.parseInt(value.strip());
      if (number > 0) {
        return number;
      }
    } catch (NumberFormatException notANumber) {
      // reported below, with the option's name
    }
    throw new IllegalArgumentException("--" + option + " takes whole numbers above zero; got " + value);
  }

  private static String run(BenchDatabase database, String shape, int entries, int keys, int lanes) throws Exception {
    boolean keyed = !shape.equals("unkeyed");
    seed(database, entries, keyed ? keys : 0);
    CpuMeter.Reading cpu = CpuMeter.start(database.name());
    long started = System.nanoTime();
    ExecutorService threads = Executors.newFixedThreadPool(lanes);
    List<Future<Counts>> running = new ArrayList<>();
    for (int lane = 0; lane < lanes; lane++) {
      List<String> laneKeys = new ArrayList<>();
      for (int key = lane; key < keys; key += lanes) {
        laneKeys.add("key-" + key);
      }
      running.add(threads.submit(() -> {
        try (Connection connection = database.dataSource().getConnection()) {
          return switch (shape) {
            case "separate" -> separate(connection, laneKeys);
            case "merged" -> merged(connection, laneKeys);
            case "unkeyed" -> unkeyed(connection);
            default -> throw new IllegalStateException("bug: shape " + shape + " passed the check");
          };
        }
      }));
    }
    Counts total = new Counts(0, 0);
    try {
      for (Future<Counts> lane : running) {
        total = total.plus(lane.get());
      }
    } finally {
      threads.shutdownNow();
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    CpuMeter.Used used = cpu.stop();
    long undone = database.count("SELECT COUNT(*) FROM outbox_entry WHERE status <> 'DELIVERED'");
    if (undone != 0 || total.delivered() != entries) {
      throw new IllegalStateException(shape + " delivered " + total.delivered() + " of " + entries + ", " + undone
          + " undone");
    }
    return String.format(Locale.ROOT, "%-8s %s, %d lane(s): %,8.0f entries/s, %,d statements (%.1f entries each);"
            + " CPU s per 10k: JVM | of it compiling | server | machine busy | others | load: %s",
        shape, keyed ? keys + " keys" : "no keys", lanes, entries / seconds, total.statements(),
        (double) entries / total.statements(), used.per10k(entries));
  }

  /** Entries delivered and statements sent by one lane. */
  private record Counts(long delivered, long statements) {
    Counts plus(Counts other) {
      return new Counts(delivered + other.delivered, statements + other.statements);
    }
  }

  /** A row as a write conditions on it. */
  private record Row(String id, long revision) {}

  /** Probe the heads, claim them, deliver them; until no key has an unfinished entry. */
  private static Counts separate(Connection connection, List<String> keys) throws SQLException {
    long delivered = 0;
    long statements = 0;
    try (PreparedStatement heads = connection.prepareStatement(HEADS + "1) h");
        PreparedStatement claim = connection.prepareStatement(CLAIM_ROWS);
        PreparedStatement deliver = connection.prepareStatement(DELIVER_ROWS)) {
      Array keyArray = connection.createArrayOf("text", keys.toArray(String[]::new));
      while (true) {
        heads.setArray(1, keyArray);
        List<Row> due = readEntries(heads);
        statements++;
        if (due.isEmpty()) {
          return new Counts(delivered, statements);
        }
        List<Row> claimed = write(connection, claim, due);
        delivered += write(connection, deliver, claimed).size();
        statements += 2;
      }
    }
  }

  /**
   * Claim the heads and read their successors, then one statement a cycle: deliver what is claimed,
   * claim each delivered key's successor, read each newly claimed entry's successor.
   */
  private static Counts merged(Connection connection, List<String> keys) throws SQLException {
    long delivered = 0;
    long statements = 0;
    String cycleSql = "WITH delivered AS (UPDATE outbox_entry e SET " + DELIVER + ROWS
        + " WHERE e.id = v.id AND e.revision = v.revision AND e.status = 'CLAIMED' RETURNING e.ordering_key),"
        + " claimed AS (UPDATE outbox_entry e SET " + CLAIM
        + " FROM unnest(?::varchar[], ?::bigint[], ?::varchar[], ?::text[]) AS v(id, revision, token, key)"
        + " WHERE e.id = v.id AND e.revision = v.revision AND v.key IN (SELECT ordering_key FROM delivered)"
        + " RETURNING e.id, e.ordering_key, e.created_at, e.revision)"
        + " SELECT true AS claimed, c.id, c.revision, c.ordering_key FROM claimed c"
        + " UNION ALL SELECT false, n.id, n.revision, n.ordering_key FROM claimed c CROSS JOIN LATERAL (SELECT "
        + COLUMNS + " FROM outbox_entry e WHERE e.ordering_key = c.ordering_key AND e.due_at IS NOT NULL"
        + " AND (e.created_at, e.id) > (c.created_at, c.id) ORDER BY e.created_at, e.id LIMIT 1) n";
    String headsAndSuccessorsSql = "SELECT h.* FROM unnest(?::text[]) AS k(key) CROSS JOIN LATERAL (SELECT " + COLUMNS
        + ", row_number() OVER (ORDER BY e.created_at, e.id) AS place" + FIRST_OF_KEY + "2) h";
    try (PreparedStatement headsAndSuccessors = connection.prepareStatement(headsAndSuccessorsSql);
        PreparedStatement claim = connection.prepareStatement(CLAIM_ROWS);
        PreparedStatement cycle = connection.prepareStatement(cycleSql)) {
      headsAndSuccessors.setArray(1, connection.createArrayOf("text", keys.toArray(String[]::new)));
      List<Row> heads = new ArrayList<>();
      Map<String, Row> successors = new LinkedHashMap<>();
      try (ResultSet rows = headsAndSuccessors.executeQuery()) {
        while (rows.next()) {
          rows.getBytes("payload");
          Row row = new Row(rows.getString("id"), rows.getLong("revision"));
          if (rows.getLong("place") == 1) {
            heads.add(row);
          } else {
            successors.put(rows.getString("ordering_key"), row);
          }
        }
      }
      List<Row> claimed = write(connection, claim, heads);
      statements += 2;
      while (!claimed.isEmpty()) {
        List<String> successorKeys = new ArrayList<>(successors.keySet());
        List<Row> successorRows = new ArrayList<>(successors.values());
        bind(connection, cycle, 1, claimed);
        bind(connection, cycle, 4, successorRows);
        cycle.setArray(7, connection.createArrayOf("text", successorKeys.toArray()));
        delivered += claimed.size();
        claimed = new ArrayList<>();
        successors = new LinkedHashMap<>();
        try (ResultSet rows = cycle.executeQuery()) {
          while (rows.next()) {
            Row row = new Row(rows.getString("id"), rows.getLong("revision"));
            if (rows.getBoolean("claimed")) {
              claimed.add(row);
            } else {
              successors.put(rows.getString("ordering_key"), row);
            }
          }
        }
        statements++;
      }
    }
    return new Counts(delivered, statements);
  }

  /** Claim up to 500 due entries in one statement, deliver them 250 at a time; until none is due. */
  private static Counts unkeyed(Connection connection) throws SQLException {
    long delivered = 0;
    long statements = 0;
    String claimDue = "UPDATE outbox_entry e SET " + CLAIM.replace("v.token", "?") + " WHERE e.id IN (SELECT id"
        + " FROM outbox_entry WHERE due_at <= now() AND ordering_key IS NULL ORDER BY due_at, id LIMIT 500"
        + " FOR UPDATE SKIP LOCKED) RETURNING e.id, e.revision, e.payload";
    try (PreparedStatement claim = connection.prepareStatement(claimDue);
        PreparedStatement deliver = connection.prepareStatement(DELIVER_ROWS)) {
      while (true) {
        String token = UUID.randomUUID().toString();
        claim.setString(1, token);
        claim.setString(2, token);
        List<Row> claimed = readEntries(claim);
        statements++;
        if (claimed.isEmpty()) {
          return new Counts(delivered, statements);
        }
        for (int from = 0; from < claimed.size(); from += 250) {
          delivered += write(connection, deliver, claimed.subList(from, Math.min(claimed.size(), from + 250))).size();
          statements++;
        }
      }
    }
  }

  /** Runs a query of entry rows, fetching each payload as a drain decoding them would. */
  private static List<Row> readEntries(PreparedStatement query) throws SQLException {
    List<Row> rows = new ArrayList<>();
    try (ResultSet result = query.executeQuery()) {
      while (result.next()) {
        result.getBytes("payload");
        rows.add(new Row(result.getString("id"), result.getLong("revision")));
      }
    }
    return rows;
  }

  /** One conditional write of {@code rows} (a claim or a delivery), each with a fresh token; the rows written. */
  private static List<Row> write(Connection connection, PreparedStatement write, List<Row> rows) throws SQLException {
    bind(connection, write, 1, rows);
    List<Row> written = new ArrayList<>();
    try (ResultSet result = write.executeQuery()) {
      while (result.next()) {
        // a claim returns the new revision (the delivery conditions on it); a delivery returns only the id
        written.add(new Row(result.getString(1), result.getMetaData().getColumnCount() > 1 ? result.getLong(2) : 0));
      }
    }
    return written;
  }

  private static void bind(Connection connection, PreparedStatement statement, int first, List<Row> rows)
      throws SQLException {
    statement.setArray(first, connection.createArrayOf("varchar", rows.stream().map(Row::id).toArray()));
    statement.setArray(first + 1, connection.createArrayOf("bigint", rows.stream().map(Row::revision).toArray()));
    statement.setArray(first + 2, connection.createArrayOf("varchar",
        rows.stream().map(row -> UUID.randomUUID().toString()).toArray()));
  }

  private static void seed(BenchDatabase database, int entries, int keys) throws SQLException {
    database.execute("TRUNCATE outbox_entry");
    String key = keys == 0 ? "NULL" : "'key-' || (g % " + keys + ")";
    database.execute("INSERT INTO outbox_entry (id, topic, ordering_key, payload, headers, status, attempts,"
        + " created_at, updated_at, available_at, due_at, claim_generation, revision)"
        + " SELECT 'emulated-' || g, 'bench', " + key + ", convert_to(repeat('x', 40), 'UTF8'), '{}', 'PENDING', 0,"
        + " now() - interval '1 hour' + g * interval '1 microsecond', now(), now() - interval '1 hour',"
        + " now() - interval '1 hour' + g * interval '1 microsecond', 0, 0 FROM generate_series(1, " + entries + ") g");
    database.execute("VACUUM ANALYZE outbox_entry");
  }
}
