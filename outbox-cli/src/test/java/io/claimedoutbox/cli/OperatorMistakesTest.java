package io.claimedoutbox.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.adapter.jpa.testkit.JdbcNamespace;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The operations commands pointed at the wrong place say so in one line, with the exit status the README gives. */
@DisplayName("outbox status and friends pointed at the wrong place: one line saying what is wrong")
class OperatorMistakesTest {

  private static final String POSTGRESQL = Optional.ofNullable(System.getenv("OUTBOX_POSTGRESQL_URL"))
      .orElse("jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres");
  private static final String MARIADB = Optional.ofNullable(System.getenv("OUTBOX_MARIADB_URL"))
      .orElse("jdbc:mariadb://127.0.0.1:3306/outbox_test?user=root");
  private static final String REDIS = Optional.ofNullable(System.getenv("OUTBOX_REDIS_URL")).orElse("redis://127.0.0.1:6379");

  @ParameterizedTest
  @ValueSource(strings = {"jdbc:postgresql://127.0.0.1:5432/no_such_outbox_db?user=postgres",
      "jdbc:mariadb://127.0.0.1:3306/no_such_outbox_db?user=root"})
  void aMissingDatabaseIsAUsageError(String url) {
    ProgramRun.Run run = ProgramRun.run("status", "--url", url);
    assertThat(run.status()).as(run.err()).isEqualTo(Main.USAGE);
    assertThat(run.err().strip()).contains("does not exist").contains("no_such_outbox_db").doesNotContain("\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"postgresql", "mariadb"})
  void aDatabaseWithoutTheTableSaysSoAndHowToCreateIt(String server) throws Exception {
    String url = server.equals("postgresql") ? POSTGRESQL : MARIADB;
    try (JdbcNamespace empty = JdbcNamespace.create(url, "outbox_cli_empty")) {
      ProgramRun.Run run = ProgramRun.run("status", "--url", empty.url());
      assertThat(run.status()).as(run.err()).isEqualTo(Main.USAGE);
      assertThat(run.err().strip()).startsWith("outbox: no outbox table here:").contains("OutboxSchema.create")
          .doesNotContain("\n");
    }
  }

  @Test
  void aRedisPrefixWithoutAnOutboxSaysNothingIsThere() {
    ProgramRun.Run run = ProgramRun.run("status", "--url", REDIS, "--key-prefix", "no-outbox-here-" + System.nanoTime());
    assertThat(run.status()).as(run.err()).isEqualTo(Main.USAGE);
    assertThat(run.err().strip()).startsWith("outbox: no outbox under key prefix 'no-outbox-here-").doesNotContain("\n");
    assertThat(run.out()).doesNotContain("total");
  }

  @Test
  void anUnreachableMongoDbIsOneShortLine() {
    ProgramRun.Run run = ProgramRun.run("status", "--url", "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300");
    assertThat(run.status()).as(run.err()).isEqualTo(Main.UNREACHABLE);
    assertThat(run.err().strip()).startsWith("outbox: cannot reach MongoDB at mongodb://127.0.0.1:1")
        .contains("Connection refused").doesNotContain("ClusterDescription").doesNotContain("servers=").doesNotContain("\n");
  }

  @Test
  void anUnreachableDatabaseIsReportedAtOnce() {
    ProgramRun.Run run = ProgramRun.run("status", "--url", "jdbc:postgresql://127.0.0.1:1/outbox_test?user=postgres");
    assertThat(run.status()).as(run.err()).isEqualTo(Main.UNREACHABLE);
    assertThat(run.err().strip()).startsWith("outbox: cannot reach the database at").contains("refused")
        .doesNotContain("\n");
  }
}
