package io.claimedoutbox.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * CLI rule: no command prints a credential it was given, in any message, usage error or stack trace,
 * with or without {@code --verbose}, whether the server is unreachable, answers with an error or works.
 */
@DisplayName("The outbox program never prints a password it was given")
class CredentialsAreNeverPrintedTest {

  private static final String SECRET = "SECRET123";

  /** Each backend URL form with a password, as users write them; most fail fast (unreachable, no such database). */
  private static final List<String> URLS = List.of(
      "jdbc:postgresql://127.0.0.1:5432/nosuchdb?user=postgres&password=" + SECRET,
      "jdbc:postgresql://127.0.0.1:1/outbox_test?user=postgres&password=" + SECRET,
      "jdbc:postgresql://postgres:" + SECRET + "@127.0.0.1:1/outbox_test",
      "jdbc:postgresql://127.0.0.1:notaport/outbox_test?user=postgres&password=" + SECRET,
      "jdbc:mariadb://127.0.0.1:1/outbox_test?user=root&password=" + SECRET,
      "jdbc:mariadb://127.0.0.1:3306/nosuchdb?user=root&password=" + SECRET,
      "redis://default:" + SECRET + "@127.0.0.1:1",
      "redis://" + SECRET + "@127.0.0.1:1",
      "redis://user:" + SECRET + "@127.0.0.1:x",
      "mongodb://user:" + SECRET + "@127.0.0.1:1/?serverSelectionTimeoutMS=300&connectTimeoutMS=300");

  /** How each command names its backend, and the other options it needs to reach the backend at all. */
  private static final Map<String, List<String>> COMMANDS = Map.of(
      "race", List.of("--backend"),
      "compare", List.of("--backend"),
      "conformance", List.of("--backend"),
      "bench", List.of("--backend"),
      "status", List.of("--url"),
      "dead-letters", List.of("--url"),
      "requeue", List.of("--url", "--all"),
      "purge", List.of("--url", "--older-than", "7d"));

  @Test
  @DisplayName("the table below covers every command of the program")
  void everyCommandIsCovered() {
    List<String> commands = new CommandLine(new OutboxCommand()).getSubcommands().keySet().stream()
        .filter(name -> !name.equals("help")).sorted().toList();
    assertThat(COMMANDS.keySet()).containsExactlyInAnyOrderElementsOf(commands);
  }

  private static Stream<Arguments> everyCommandWithEveryUrl() {
    List<Arguments> cases = new ArrayList<>();
    COMMANDS.keySet().stream().sorted().forEach(command -> URLS.forEach(url -> {
      cases.add(Arguments.of(command, url, false));
      cases.add(Arguments.of(command, url, true));
    }));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} {1} verbose={2}")
  @MethodSource("everyCommandWithEveryUrl")
  void noPasswordInAnythingPrinted(String command, String url, boolean verbose) {
    List<String> args = new ArrayList<>();
    args.add(command);
    List<String> options = COMMANDS.get(command);
    args.add(options.get(0));
    args.add(url);
    args.addAll(options.subList(1, options.size()));
    if (verbose) {
      args.add("--verbose");
    }
    ProgramRun.Run run = ProgramRun.run(args.toArray(String[]::new));

    assertThat(run.status()).as("the command fails against %s:%n%s", url, run.err()).isNotZero();
    assertThat(run.out() + run.err()).as("everything printed").doesNotContain(SECRET).isNotBlank();
  }

  @Test
  @DisplayName("a command that works prints no password either (PostgreSQL with trust authentication ignores it)")
  void workingCommandPrintsNoPassword() {
    ProgramRun.Run run = ProgramRun.run("status", "--url",
        "jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres&password=" + SECRET, "--verbose");
    assertThat(run.out() + run.err()).doesNotContain(SECRET);
  }

  @Test
  @DisplayName("redaction keeps what helps: the scheme, the user, the host and every other parameter")
  void redactionKeepsTheRest() {
    Redaction redaction = Redaction.of("jdbc:postgresql://bob:pa%24s@db:5432/app?user=bob&password=hunter22&ssl=true");
    assertThat(redaction.apply("cannot reach jdbc:postgresql://bob:pa%24s@db:5432/app?user=bob&password=hunter22&ssl=true"))
        .isEqualTo("cannot reach jdbc:postgresql://bob:***@db:5432/app?user=bob&password=***&ssl=true");
    assertThat(redaction.apply("FATAL: password authentication failed, tried 'hunter22' and 'pa$s'"))
        .doesNotContain("hunter22").doesNotContain("pa$s");
    assertThat(Redaction.of().apply("redis://:topsecret@host:6379 and redis://topsecret@host"))
        .isEqualTo("redis://:***@host:6379 and redis://***@host");
  }
}
