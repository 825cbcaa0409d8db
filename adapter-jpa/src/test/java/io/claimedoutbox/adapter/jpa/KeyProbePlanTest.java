package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.domain.OutboxMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("JPA adapter: MariaDB's due query probes each keyed row's key from the key-order index alone")
class KeyProbePlanTest {

  private final JpaTestKit kit = JpaFixtures.of(TestDatabase.MARIADB);

  @BeforeEach
  void cleanStore() {
    kit.fixture().clean();
  }

  @Test
  @DisplayName("2,000 entries over 20 keys: the walk's probe of each row's key reads outbox_entry_key_order and no row")
  void walkProbesTheKeyOrderIndexAlone() throws SQLException {
    JpaOutboxStore store = JpaOutboxStore.builder(kit.entityManagerFactory()).build();
    List<OutboxMessage> backlog = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      backlog.add(OutboxMessage.of("t", new byte[] {(byte) i}).withOrderingKey("key-" + i % 20));
    }
    store.appendAll(backlog);

    List<String> probes = new ArrayList<>();
    DueQueries.Query walk = DueQueries.ids(SqlDialect.MARIADB, DueQueries.Kind.ALL);
    try (Connection connection = kit.dataSource().getConnection();
        PreparedStatement explain = connection.prepareStatement("EXPLAIN " + walk.sql())) {
      walk.bind(explain, SqlDialect.MARIADB, Instant.now().plusSeconds(60), 500, false, Long.MAX_VALUE);
      try (ResultSet plan = explain.executeQuery()) {
        while (plan.next()) {
          if ("p".equals(plan.getString("table"))) {
            probes.add(plan.getString("key") + " / " + plan.getString("Extra"));
          }
        }
      }
    }

    // a probe that also asked due_at would read each candidate's row: in some runs 350-670 ms a due query
    assertThat(probes).as("the probes of the walk's plan (key / extra)").isNotEmpty()
        .allSatisfy(probe -> assertThat(probe).startsWith("outbox_entry_key_order / ").contains("Using index"));
  }
}
