package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.domain.OutboxMessage;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("JPA adapter: a claim's due query walks the due index however stale the statistics (PostgreSQL)")
class DueQueryPlanTest {

  private final JpaTestKit kit = JpaFixtures.of(TestDatabase.POSTGRESQL);

  @BeforeEach
  void cleanStore() {
    kit.fixture().clean();
  }

  @Test
  @DisplayName("analysed while empty, then 5,000 appends: both claim queries read the unkeyed due index in order; the unkeyed one sorts nothing")
  void steeredDueQueryUsesTheDueIndex() throws SQLException {
    try (Connection connection = kit.dataSource().getConnection(); Statement statement = connection.createStatement()) {
      statement.execute("ANALYZE outbox_entry");
    }
    JpaOutboxStore store = JpaOutboxStore.builder(kit.entityManagerFactory()).build();
    List<OutboxMessage> burst = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      burst.add(OutboxMessage.of("t", new byte[] {(byte) i}));
    }
    store.appendAll(burst);

    for (DueQueries.Kind kind : DueQueries.Kind.values()) {
      String plan;
      try (Connection connection = kit.dataSource().getConnection()) {
        connection.setAutoCommit(false);
        try {
          SqlDialect.POSTGRESQL.steerDueQuery(connection);
          plan = explain(connection, DueQueries.rows(SqlDialect.POSTGRESQL, kind, true, true));
        } finally {
          connection.rollback();
        }
      }

      assertThat(plan).as("the plan of the claim's query for " + kind)
          .contains("Index Scan using outbox_entry_unkeyed_due on outbox_entry e")
          .doesNotContain("Seq Scan").doesNotContain("Bitmap Heap Scan").doesNotContain("JIT:");
      if (kind == DueQueries.Kind.UNKEYED_ONLY) {
        assertThat(plan).as("the plan of the claim's query for " + kind).doesNotContain("Sort Key: e.due_at");
      }
    }
  }

  /**
   * The plan the claim runs with: the statement prepared on the server and executed under the claim's
   * settings, which ask for the generic plan ({@link SqlDialect#steerDueQuery}).
   */
  private static String explain(Connection connection, DueQueries.Query claim) throws SQLException {
    StringBuilder numbered = new StringBuilder();
    int parameter = 0;
    for (char c : claim.sql().toCharArray()) {
      numbered.append(c == '?' ? "$" + ++parameter : String.valueOf(c));
    }
    List<String> values = new ArrayList<>();
    for (String name : claim.parameters()) {
      values.add(switch (name) {
        case "now" -> "now() + interval '60 seconds'";
        case "limit" -> "500";
        case "scan" -> "0";
        default -> Long.toString(64L << 20);
      });
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("PREPARE claim AS " + numbered);
      StringBuilder plan = new StringBuilder();
      try (ResultSet lines = statement.executeQuery("EXPLAIN (ANALYZE) EXECUTE claim(" + String.join(", ", values) + ")")) {
        while (lines.next()) {
          plan.append(lines.getString(1)).append('\n');
        }
      }
      statement.execute("DEALLOCATE claim");
      return plan.toString();
    }
  }
}
