package io.claimedoutbox.cli;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes credentials from what the program prints: the password of a URL's user-info, the value
 * of a {@code password=}-like parameter, and every such value the command line carried, wherever
 * a driver's message or a stack trace repeats it (also URL-decoded). Everything the program prints
 * or logs goes through it ({@link RedactingOutput}), so no message needs to remember to.
 */
final class Redaction {

  static final String MASK = "***";

  /** {@code scheme://user:password@} and {@code redis://password@} (Jedis reads a lone user-info as the password). */
  private static final Pattern USER_INFO =
      Pattern.compile("(?i)\\b([a-z][a-z0-9+.\\-]*://)([^/@\\s:?#]*)(:[^@\\s/]*)?@");

  /** {@code password=…}, {@code pwd=…}, {@code sslpassword=…} and the like, in query strings and properties. */
  private static final Pattern SECRET_PARAMETER = Pattern.compile(
      "(?i)\\b((?:[a-z]*password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|credentials?)\\s*=\\s*)([^&;\\s,'\"<>)]+)");

  private final List<String> literals;

  private Redaction(Set<String> literals) {
    this.literals = literals.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList();
  }

  /**
   * @param args the command line, whose secrets are also hidden where they reappear on their own
   * @return the redaction for one run of the program
   */
  static Redaction of(String... args) {
    Set<String> secrets = new LinkedHashSet<>();
    for (String arg : args) {
      Matcher userInfo = USER_INFO.matcher(arg);
      while (userInfo.find()) {
        String password = userInfo.group(3) != null ? userInfo.group(3).substring(1) : redisPassword(userInfo);
        addSecret(secrets, password);
      }
      Matcher parameter = SECRET_PARAMETER.matcher(arg);
      while (parameter.find()) {
        addSecret(secrets, parameter.group(2));
      }
    }
    return new Redaction(secrets);
  }

  private static String redisPassword(Matcher userInfo) {
    return userInfo.group(1).toLowerCase(java.util.Locale.ROOT).startsWith("redis") ? userInfo.group(2) : null;
  }

  /** Short values would mask ordinary words; a secret of one or two characters is hidden by the patterns alone. */
  private static void addSecret(Set<String> secrets, String secret) {
    if (secret == null || secret.length() < 3) {
      return;
    }
    secrets.add(secret);
    try {
      secrets.add(URLDecoder.decode(secret, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException notEncoded) {
      // the raw form is hidden already
    }
  }

  /**
   * @param text anything about to be printed
   * @return the text with every credential replaced by {@value #MASK}
   */
  String apply(String text) {
    String masked = USER_INFO.matcher(text).replaceAll(match -> {
      String scheme = match.group(1);
      if (match.group(3) != null) {
        return Matcher.quoteReplacement(scheme + match.group(2) + ":" + MASK + "@");
      }
      boolean redis = scheme.toLowerCase(java.util.Locale.ROOT).startsWith("redis");
      return Matcher.quoteReplacement(scheme + (redis ? MASK : match.group(2)) + "@");
    });
    masked = SECRET_PARAMETER.matcher(masked).replaceAll(match -> Matcher.quoteReplacement(match.group(1) + MASK));
    for (String literal : literals) {
      masked = masked.replace(literal, MASK);
    }
    return masked;
  }
}
