package io.claimedoutbox.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The module README's rule table is the {@link Rule} enum, word for word. */
@DisplayName("The README lists every rule exactly as the suite enforces it")
class ReadmeListsEveryRuleTest {

  static String ruleTable() {
    return "| rule | level | what it demands | if it fails, check |\n| --- | --- | --- | --- |\n"
        + Arrays.stream(Rule.values())
            .map(rule -> "| " + rule.name() + " | " + rule.level().name().toLowerCase(Locale.ROOT) + " | "
                + rule.title() + " | " + rule.hint() + " |")
            .collect(Collectors.joining("\n"))
        + "\n";
  }

  @Test
  void readmeHoldsTheRuleTable() throws IOException {
    String readme = Files.readString(Path.of("README.md"));
    // written out so a changed rule's table can be pasted into the README as it is
    Files.writeString(Path.of("target", "rule-table.md"), ruleTable());
    assertThat(readme).as("README.md should contain this table:%n%s", ruleTable()).contains(ruleTable());
  }
}
