package io.claimedoutbox.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.Rule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("The outbox program: commands, help, one-line errors and exit codes")
class MainTest {

  private static ProgramRun.Run run(String... args) {
    return ProgramRun.run(args);
  }

  @ParameterizedTest
  @ValueSource(strings = {"race", "compare", "conformance", "bench", "status", "dead-letters", "requeue", "purge"})
  void everyCommandHasHelp(String command) {
    ProgramRun.Run help = run(command, "--help");
    assertThat(help.status()).isZero();
    assertThat(help.out()).contains("Usage: outbox " + command).contains("--verbose");
  }

  @Test
  @DisplayName("every paragraph of every command's help is whole: none stops mid-sentence")
  void everyHelpParagraphIsWhole() {
    picocli.CommandLine program = new picocli.CommandLine(new OutboxCommand());
    List<picocli.CommandLine> commands = new java.util.ArrayList<>(program.getSubcommands().values());
    commands.removeIf(command -> command.getCommandName().equals("help"));
    commands.add(program);
    for (picocli.CommandLine command : commands) {
      for (String paragraph : command.getCommandSpec().usageMessage().description()) {
        assertThat(paragraph).as("a paragraph of %s's help", command.getCommandName()).matches("(?s).*[.:)]$");
      }
    }
  }

  @Test
  void anUnknownBackendIsOneLineAndStatusTwo() {
    ProgramRun.Run run = run("race", "--backend", "ftp://somewhere");
    assertThat(run.status()).isEqualTo(Main.USAGE);
    assertThat(run.err().strip()).startsWith("outbox: unknown backend 'ftp://somewhere'").doesNotContain("\n")
        .doesNotContain("Exception");
  }

  @Test
  void anUnreachableServerIsOneLineAndStatusThree() {
    ProgramRun.Run run = run("race", "--backend", "redis://127.0.0.1:1");
    assertThat(run.status()).isEqualTo(Main.UNREACHABLE);
    assertThat(run.err().strip()).startsWith("outbox: cannot reach Redis at redis://127.0.0.1:1").doesNotContain("\n\tat ");
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdbc:postgresql://127.0.0.1:notaport/outbox_test?user=postgres",
      "jdbc:mariadb://127.0.0.1:99999/outbox_test", "redis://127.0.0.1:6379/notanumber", "redis://127.0.0.1:x"})
  void aMalformedAddressIsAUsageErrorBeforeAnyConnection(String url) {
    ProgramRun.Run run = run("race", "--backend", url);
    assertThat(run.status()).isEqualTo(Main.USAGE);
    assertThat(run.err().strip()).startsWith("outbox: bad ").doesNotContain("\n").doesNotContain("WARNING");
  }

  @Test
  void compareChecksEveryBackendAndTheHtmlDirectoryBeforeTheFirstRace(@TempDir Path directory) {
    ProgramRun.Run missingDirectory = run("compare", "-b", "h2:mem", "--entries", "100000",
        "--html", directory.resolve("no-such-dir/compare.html").toString());
    assertThat(missingDirectory.status()).isEqualTo(Main.USAGE);
    assertThat(missingDirectory.err()).contains("does not exist");
    assertThat(missingDirectory.out()).doesNotContain("outbox race on");

    ProgramRun.Run unreachableSecond = run("compare", "-b", "h2:mem", "-b", "redis://127.0.0.1:1", "--entries", "100000");
    assertThat(unreachableSecond.status()).isEqualTo(Main.UNREACHABLE);
    assertThat(unreachableSecond.out()).as("no race ran before the unreachable backend was found")
        .doesNotContain("outbox race on");
  }

  @Test
  void aMistypedCommandOrOptionGetsSuggestions() {
    ProgramRun.Run command = run("racee");
    assertThat(command.status()).isEqualTo(Main.USAGE);
    assertThat(command.err()).contains("Did you mean").contains("race");

    ProgramRun.Run option = run("race", "--entires", "5");
    assertThat(option.status()).isEqualTo(Main.USAGE);
    assertThat(option.err()).contains("Possible solutions: --entries");
  }

  @Test
  void aMissingDatabaseIsAUsageErrorNotUnreachable() {
    ProgramRun.Run run = run("race", "--backend", "jdbc:postgresql://127.0.0.1:5432/no_such_outbox_database?user=postgres");
    assertThat(run.status()).isEqualTo(Main.USAGE);
    assertThat(run.err()).contains("does not exist").contains("no_such_outbox_database");
  }

  @Test
  void conformanceOnH2PrintsEachRuleOnceInOrder() {
    ProgramRun.Run run = run("conformance", "--backend", "h2:mem");
    List<String> ruleLines = run.out().lines().filter(line -> line.matches("  (PASS|SKIP|FAIL)  .*")).toList();
    List<String> ruleIds = ruleLines.stream().map(line -> line.substring(8, line.indexOf(' ', 8))).toList();
    assertThat(ruleIds).as("every rule once, in the suite's order")
        .containsExactlyElementsOf(Arrays.stream(Rule.values()).map(Rule::name).toList());
    assertThat(ruleLines).anySatisfy(line -> assertThat(line).startsWith("  PASS  K1").contains("8 cases"));
  }

  @Test
  void benchChecksItsOutputDirectoryFirst(@TempDir Path directory) {
    ProgramRun.Run run = run("bench", "-b", "h2:mem", "--output", directory.resolve("missing/bench.md").toString());
    assertThat(run.status()).isEqualTo(Main.USAGE);
    assertThat(run.err()).contains("does not exist");
  }

  @Test
  void verboseAddsTheStackTrace() {
    ProgramRun.Run run = run("race", "--backend", "redis://127.0.0.1:1", "--verbose");
    assertThat(run.status()).isEqualTo(Main.UNREACHABLE);
    assertThat(run.err()).contains("\tat ");
  }

  @Test
  void aBadOptionValueIsReportedWithTheCommandsHelpHint() {
    ProgramRun.Run run = run("race", "--lease", "soon");
    assertThat(run.status()).isEqualTo(Main.USAGE);
    assertThat(run.err()).contains("'soon' is not a duration").contains("outbox race --help");
  }

  @Test
  @DisplayName("race on embedded H2 prints the outcome table and a passed attribution check")
  void raceOnH2() {
    ProgramRun.Run run = run("--entries", "300", "--workers", "3", "--lease", "200ms");
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).contains("outbox race on H2").contains("transition").contains("applied")
        .contains("stale_claim").contains("Attribution check: PASSED").contains("entries/s").contains("p99");
  }

  @Test
  @DisplayName("compare writes a self-contained HTML page")
  void compareWritesHtml(@TempDir Path directory) throws Exception {
    Path page = directory.resolve("compare.html");
    ProgramRun.Run run = run("compare", "-b", "h2:mem", "--entries", "200", "--lease", "200ms", "--html", page.toString());
    assertThat(run.status()).as(run.err()).isZero();
    String html = Files.readString(page);
    assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg").contains("attribution check")
        .doesNotContain("src=").doesNotContain("href=").doesNotContain("<link").doesNotContain("<script");
  }

  @Test
  @DisplayName("bench reports every rate next to the raw compare-and-set, as a ratio")
  void benchOnH2(@TempDir Path directory) throws Exception {
    Path markdown = directory.resolve("benchmarks.md");
    ProgramRun.Run run = run("bench", "--operations", "100", "--backlogs", "100,1000", "--samples", "10", "--output",
        markdown.toString());
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(Files.readString(markdown)).contains("## Machine").contains("transition ÷ raw").contains("| 1,000 |");
    assertThat(run.out()).as("the terminal gets aligned columns, not Markdown").contains("transition ÷ raw")
        .doesNotContain("| ---").doesNotContain("### ");
  }

  @Test
  @DisplayName("conformance runs the suite against a live deployment and prints each rule")
  void conformanceOnH2() {
    ProgramRun.Run run = run("conformance", "-b", "h2:mem");
    assertThat(run.status()).as(run.out()).isZero();
    assertThat(run.out()).contains("PASS  T4 [required]").contains("SKIP  C7 [optional]").contains("0 failed");
  }

  @Test
  void durationsReadAsPeopleWriteThem() {
    DurationConverter converter = new DurationConverter();
    assertThat(converter.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(converter.convert("2s")).isEqualTo(Duration.ofSeconds(2));
    assertThat(converter.convert("PT1M")).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void noCommandMeansRace() {
    assertThat(Main.withDefaultCommand()).containsExactly("race");
    assertThat(Main.withDefaultCommand("--entries", "5")).containsExactly("race", "--entries", "5");
    assertThat(Main.withDefaultCommand("bench")).containsExactly("bench");
    assertThat(Main.withDefaultCommand("--help")).containsExactly("--help");
  }
}
