package io.claimedoutbox.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Opens the backend a URL names. */
final class Backends {

  /** The prefix of every schema, database or collection the program creates, and so may drop. */
  static final String NAMESPACE = "outbox_cli";

  static final String SUPPORTED = "h2:mem, jdbc:postgresql://…, jdbc:mariadb://…, redis://…, mongodb://…";

  private Backends() {}

  static BackendSession open(String url, Clock clock) {
    checkAddress(url);
    String lower = url.toLowerCase(Locale.ROOT);
    if (lower.equals("h2:mem") || lower.startsWith("jdbc:h2:")) {
      return JdbcBackend.h2(clock);
    }
    if (lower.startsWith("jdbc:postgresql://")) {
      return JdbcBackend.postgresql(url, clock);
    }
    if (lower.startsWith("jdbc:mariadb://") || lower.startsWith("jdbc:mysql://")) {
      return JdbcBackend.mariadb(url, clock);
    }
    if (lower.startsWith("redis://") || lower.startsWith("rediss://")) {
      return RedisBackend.open(url, clock);
    }
    if (lower.startsWith("mongodb://") || lower.startsWith("mongodb+srv://")) {
      return MongoBackend.open(url, clock);
    }
    throw new UsageException("unknown backend '" + url + "'; use one of " + SUPPORTED);
  }

  private static final Pattern SERVER_URL =
      Pattern.compile("(?i)(?:jdbc:)?(?:postgresql|mariadb|mysql|redis|rediss|mongodb)://(?:[^@/?]*@)?([^/?]*)(/[^?]*)?.*");

  /**
   * Rejects, as a usage error and before any connection, an address no server could answer: a port
   * that is not a number from 1 to 65535, or a Redis database that is not a number. (Left to the
   * drivers, these turn into "unreachable" after a timeout, or a stray driver warning.)
   */
  static void checkAddress(String url) {
    Matcher parts = SERVER_URL.matcher(url);
    if (!parts.matches()) {
      return;
    }
    for (String host : parts.group(1).split(",")) {
      int colon = host.lastIndexOf(':');
      if (colon >= 0 && !host.endsWith("]")) {
        String port = host.substring(colon + 1);
        if (!port.matches("\\d{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
          throw new UsageException("bad port '" + port + "' in '" + url + "'; a port is a number from 1 to 65535");
        }
      }
    }
    String path = parts.group(2);
    boolean redis = url.toLowerCase(Locale.ROOT).startsWith("redis");
    if (redis && path != null && path.length() > 1 && !path.substring(1).matches("\\d{1,4}")) {
      throw new UsageException("bad Redis database '" + path.substring(1) + "' in '" + url
          + "'; expected redis://host:port or redis://host:port/<number>");
    }
  }

  /**
   * Checks, before a long run, that the file an option names can be written: its directory exists.
   *
   * @param file the file, may be {@code null} (option not given)
   * @param option the option's name, for the message
   */
  static void checkWritable(Path file, String option) {
    if (file == null) {
      return;
    }
    Path directory = file.toAbsolutePath().getParent();
    if (directory != null && !Files.isDirectory(directory)) {
      throw new UsageException("the directory of " + option + " " + file + " does not exist; create it first");
    }
  }
}
