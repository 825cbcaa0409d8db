package io.claimedoutbox.cli;

import java.time.Clock;
import java.util.Locale;

/** Opens the backend a URL names. */
final class Backends {

  static final String SUPPORTED = "h2:mem, jdbc:postgresql://…, jdbc:mariadb://…, redis://…, mongodb://…";

  private Backends() {}

  static BackendSession open(String url, Clock clock) {
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
}
