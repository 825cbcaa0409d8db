package io.claimedoutbox.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.port.spi.EntryFields;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A Lua script that misspells a field fails only at run time, so this test reads every script and
 * checks each field name it uses — every quoted lower-camel-case word; commands, statuses and
 * outcomes are upper case — against the one field table the Java codec uses. The index keys a script
 * names from its due key's hash tag ({@code tag .. 'failed'}) are checked against {@link RedisKeys}.
 */
@DisplayName("Redis adapter: every field a Lua script reads or writes is in EntryFields")
class ScriptFieldNamesTest {

  private static final List<String> SCRIPTS = List.of("append", "peek", "claim", "write", "delete", "stats",
      "dead_letters", "requeue", "purge");
  private static final Pattern QUOTED_FIELD = Pattern.compile("'([a-z][A-Za-z]*)'");

  @Test
  void scriptsUseOnlyKnownFieldNames() throws IOException {
    Set<String> used = new TreeSet<>();
    for (String script : SCRIPTS) {
      Matcher quoted = QUOTED_FIELD.matcher(source(script));
      while (quoted.find()) {
        used.add(quoted.group(1));
      }
    }
    RedisKeys keys = new RedisKeys("p", 1);
    Set<String> indexSuffixes = Set.of(keys.failed(0), keys.finished(0), keys.deadLetters(0)).stream()
        .map(key -> key.substring(keys.tag(0).length() + 1)).collect(Collectors.toSet());
    Set<String> allowed = new TreeSet<>(EntryFields.ALL);
    allowed.addAll(indexSuffixes);
    assertThat(used).as("field names (and index key suffixes) in the scripts").isNotEmpty().isSubsetOf(allowed);
    assertThat(used).as("the claim fields the scripts compare")
        .contains(EntryFields.OWNER, EntryFields.TOKEN_NONCE, EntryFields.STATUS, EntryFields.REVISION);
  }

  @Test
  void conditionalWriteRequiresEveryFieldAnEntryAlwaysHas() throws IOException {
    String script = source("write");
    Matcher list = Pattern.compile("local present = \\{([^}]*)}").matcher(script);
    assertThat(list.find()).as("the present list in write.lua").isTrue();
    Set<String> required = Pattern.compile("'([A-Za-z]+)'").matcher(list.group(1)).results()
        .map(found -> found.group(1)).collect(Collectors.toCollection(TreeSet::new));
    // the three the script reads for its comparison or tests for on their own
    required.addAll(List.of(EntryFields.PAYLOAD, EntryFields.STATUS, EntryFields.REVISION));
    assertThat(script).contains("HEXISTS', element.key, 'payload'").contains("'revision', 'status'");
    assertThat(required).isEqualTo(new TreeSet<>(EntryFields.ALWAYS_PRESENT));
  }

  /**
   * Redis wants every key a script touches passed in KEYS. The writing scripts get every key from
   * Java; only the two that read an index and then the hashes it names (the claim's peek and the
   * dead-letter page) build entry keys from what they read, all under the shard's own hash tag.
   */
  @Test
  @DisplayName("only the peek and the dead-letter page name keys from what they read; every writing script gets its keys in KEYS")
  void onlyTheReadersNameKeysFromData() throws IOException {
    Pattern builtKey = Pattern.compile("redis\\.call\\('[A-Za-z]+',\\s*[^,)]*\\.\\.");
    Set<String> building = new TreeSet<>();
    for (String script : SCRIPTS) {
      if (builtKey.matcher(source(script)).find()) {
        building.add(script);
      }
    }
    assertThat(building).isEqualTo(Set.of("peek", "dead_letters"));
  }

  private static String source(String script) throws IOException {
    String path = "/io/claimedoutbox/adapter/redis/scripts/" + script + ".lua";
    try (InputStream in = ScriptFieldNamesTest.class.getResourceAsStream(path)) {
      assertThat(in).as(path).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
