package com.example.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The quick start works as the README shows it, and the README shows it exactly. */
@DisplayName("Plain Java quick start: runs on PostgreSQL and is the README's text, word for word")
class QuickStartTest {

  private static final String POSTGRESQL = Optional.ofNullable(System.getenv("OUTBOX_POSTGRESQL_URL"))
      .orElse("jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres");

  @Test
  @DisplayName("appends with the order and delivers it (twice in a row: the schema step is safe at every start)")
  void appendsAndDelivers() throws Exception {
    assertThatThrownBy(() -> Class.forName("org.hibernate.Version"))
        .as("the quick start's dependencies bring no JPA provider: the SQL store is plain JDBC")
        .isInstanceOf(ClassNotFoundException.class);
    assertThatThrownBy(() -> Class.forName("jakarta.persistence.EntityManager"))
        .isInstanceOf(ClassNotFoundException.class);
    String schema = "quickstart_" + UUID.randomUUID().toString().substring(0, 8);
    try (Connection admin = DriverManager.getConnection(POSTGRESQL)) {
      admin.createStatement().execute("CREATE SCHEMA " + schema);
      try {
        String url = POSTGRESQL + (POSTGRESQL.contains("?") ? "&" : "?") + "currentSchema=" + schema;
        for (int run = 1; run <= 2; run++) {
          String printed = runMain(url);
          assertThat(printed).contains("publishing orders.placed {\"orderId\":\"42\"}").endsWith("delivered\n");
        }
      } finally {
        admin.createStatement().execute("DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  private static String runMain(String url) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      QuickStart.main(new String[] {url});
    } finally {
      System.setOut(original);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName("the README's plain Java snippets are this module's pom and QuickStart.java")
  void readmeShowsTheseFiles() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    String pom = Files.readString(Path.of("pom.xml"));
    Matcher dependencies = Pattern.compile("(?s)  <!-- readme:dependencies -->\n(.*?)  <!-- /readme:dependencies -->")
        .matcher(pom);
    assertThat(dependencies.find()).as("the marked dependencies in pom.xml").isTrue();
    assertThat(readme).as("README.md should show the quick start's dependencies as they are in its pom.xml")
        .contains("```xml\n" + dependencies.group(1).lines().map(line -> line.replaceFirst("^  ", ""))
            .collect(Collectors.joining("\n", "", "\n")) + "```");
    String main = Files.readString(Path.of("src/main/java/com/example/orders/QuickStart.java"));
    assertThat(readme).as("README.md should show QuickStart.java whole")
        .contains("```java\n" + main + "```");
  }
}
