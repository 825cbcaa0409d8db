package io.claimedoutbox.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every package says who may touch it, and the SPI stays the adapter authors' room: application
 * code (the sample service, the quickstart) and the modules applications build on (drain, starter,
 * observation, publishers, codecs, tracing) never import {@code io.claimedoutbox.port.spi}.
 */
@DisplayName("Packages say who may touch them; applications never import the SPI")
class RoomsTest {

  private static final Pattern ROOM = Pattern.compile("/\\*\\*\\s*\\n\\s*\\* <b>(API|SPI|test kit|internal|example)\\.</b>");
  private static final String SPI = "io.claimedoutbox.port.spi..";
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @Test
  @DisplayName("every production package has a package-info.java naming its room")
  void everyPackageNamesItsRoom() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Path directory : productionPackages()) {
      Path info = directory.resolve("package-info.java");
      if (!Files.exists(info)) {
        problems.add(ROOT.relativize(directory) + ": no package-info.java");
      } else if (!ROOM.matcher(Files.readString(info)).find()) {
        problems.add(ROOT.relativize(info) + ": its Javadoc does not start with <b>API.</b>, <b>SPI.</b>, <b>test kit.</b>,"
            + " <b>internal.</b> or <b>example.</b>");
      }
    }
    assertThat(problems).as("packages that do not say who may touch them").isEmpty();
  }

  @Test
  @DisplayName("the modules applications build on never import the SPI")
  void applicationFacingModulesStayOutOfTheSpi() {
    JavaClasses production = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.claimedoutbox");
    noClasses().that().resideInAnyPackage("io.claimedoutbox.drain..", "io.claimedoutbox.spring..",
            "io.claimedoutbox.micrometer..", "io.claimedoutbox.jackson..", "io.claimedoutbox.rabbitmq..",
            "io.claimedoutbox.kafka..", "io.claimedoutbox.tracing..")
        .should().dependOnClassesThat().resideInAPackage(SPI)
        .check(production);
  }

  @Test
  @DisplayName("the sample service and the quickstart, applications both, never import the SPI")
  void applicationsStayOutOfTheSpi() {
    for (String module : List.of("sample-orders-service", "quickstart-plain-java")) {
      Path classes = ROOT.resolve(module).resolve("target/classes");
      assertThat(classes).as("%s's compiled classes: build the module first (the reactor builds it before this one)",
          module).isDirectory();
      JavaClasses application = new ClassFileImporter().importPath(classes);
      assertThat(application).as("classes of %s", module).isNotEmpty();
      noClasses().should().dependOnClassesThat().resideInAPackage(SPI).check(application);
    }
  }

  private static Set<Path> productionPackages() throws IOException {
    Set<Path> packages = new TreeSet<>();
    try (Stream<Path> files = Files.walk(ROOT)) {
      files.filter(path -> path.toString().endsWith(".java"))
          .filter(path -> path.toString().contains("/src/main/java/"))
          .filter(path -> !path.toString().contains("/target/") && !path.toString().contains("/node_modules/"))
          .filter(path -> !path.getFileName().toString().equals("package-info.java"))
          .forEach(path -> packages.add(path.getParent()));
    }
    assertThat(packages).as("production packages found under %s", ROOT).hasSizeGreaterThan(20);
    return packages;
  }
}
