package io.claimedoutbox.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What the formatter check (Spotless: whitespace, blank-line runs) does not see, checked over every
 * Java source of the repository: imports that nothing uses, and wildcard imports.
 */
@DisplayName("Sources: no unused or wildcard imports")
class SourceHygieneTest {

  private static final Pattern IMPORT = Pattern.compile("^import (?:static )?[\\w.]+\\.(\\w+|\\*);$", Pattern.MULTILINE);

  @Test
  void importsAreUsedAndNamed() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Path source : javaSources()) {
      String text = Files.readString(source);
      String body = IMPORT.matcher(text).replaceAll("");
      Matcher imported = IMPORT.matcher(text);
      while (imported.find()) {
        String name = imported.group(1);
        if (name.equals("*")) {
          problems.add(source + ": wildcard import " + imported.group());
        } else if (!Pattern.compile("\\b" + name + "\\b").matcher(body).find()) {
          problems.add(source + ": unused " + imported.group());
        }
      }
    }
    assertThat(problems).as("source problems").isEmpty();
  }

  private static List<Path> javaSources() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    assertThat(root.resolve("pom.xml")).as("the repository root above architecture-tests").exists();
    try (Stream<Path> files = Files.walk(root)) {
      List<Path> sources = files
          .filter(path -> path.toString().endsWith(".java"))
          .filter(path -> path.toString().contains("/src/"))
          .filter(path -> !path.toString().contains("/target/"))
          .toList();
      assertThat(sources).as("Java sources found").hasSizeGreaterThan(100);
      return sources;
    } catch (UncheckedIOException failure) {
      throw failure.getCause();
    }
  }
}
