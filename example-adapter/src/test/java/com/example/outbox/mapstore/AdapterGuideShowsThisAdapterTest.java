package com.example.outbox.mapstore;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The adapter authors' guide shows this adapter as it is built and tested here, not a copy that drifts. */
@DisplayName("docs/adapter-authors.md shows ConcurrentMapEntryStorage word for word")
class AdapterGuideShowsThisAdapterTest {

  @Test
  void guideShowsTheSource() throws Exception {
    String source = Files.readString(Path.of("src/main/java/com/example/outbox/mapstore/ConcurrentMapEntryStorage.java"));
    String shown = source.replaceFirst("(?s)^package [^;]*;\n\n(import [^\n]*\n)*\n", "");
    assertTrue(shown.startsWith("/**"), "the class without its package and imports starts at its Javadoc");
    assertTrue(Files.readString(Path.of("..", "docs", "adapter-authors.md")).contains("```java\n" + shown + "```"),
        "docs/adapter-authors.md should show ConcurrentMapEntryStorage.java from its Javadoc on, word for word");
  }
}
