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
 * outcomes are upper case — against the one field table the Java codec uses, and the index key suffixes
 * of {@link RedisKeys}.
 */
@DisplayName("Redis adapter: every field a Lua script reads or writes is in EntryFields")
class ScriptFieldNamesTest {

  private static final List<String> SCRIPTS = List.of("append", "due_ids", "read", "claim", "write", "delete",
      "stats", "requeue", "purge");
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
   * Redis wants every key a script touches passed in KEYS: no script builds a key name, neither from
   * what it read (an index member) nor from another key's hash tag. Checked as the two ways a Lua
   * script could: a concatenation inside a call's key argument, or a local made by string functions.
   */
  @Test
  @DisplayName("no script names a key itself; every key comes in KEYS")
  void everyKeyComesInKeys() throws IOException {
    Pattern builtKey = Pattern.compile("redis\\.call\\('[A-Za-z]+',\\s*[^,)]*\\.\\.");
    Pattern derived = Pattern.compile("string\\.(gsub|sub|format)\\(\\s*KEYS");
    Set<String> building = new TreeSet<>();
    for (String script : SCRIPTS) {
      String source = source(script);
      if (builtKey.matcher(source).find() || derived.matcher(source).find()) {
        building.add(script);
      }
    }
    assertThat(building).isEmpty();
    assertThat(builtKey.matcher("redis.call('HGET', ARGV[3] .. id, 'topic')").find()).as("the pattern finds a built key")
        .isTrue();
    assertThat(derived.matcher("local tag = (string.gsub(KEYS[1], 'due$', ''))").find()).as("and a derived one").isTrue();
  }

  private static String source(String script) throws IOException {
    String path = "/io/claimedoutbox/adapter/redis/scripts/" + script + ".lua";
    try (InputStream in = ScriptFieldNamesTest.class.getResourceAsStream(path)) {
      assertThat(in).as(path).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
