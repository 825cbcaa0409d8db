package io.claimedoutbox.domain;

import java.time.Duration;
import java.util.Objects;

/**
 * Argument checks shared by the domain, the ports and the adapters, so that every layer rejects
 * bad input with the same kind of exception and a message that names the argument.
 *
 * <p>Every method throws before the caller does anything else; callers rely on that to reject bad
 * input before any I/O.
 */
public final class Arguments {

  private Arguments() {}

  /**
   * Returns {@code value} or throws a {@link NullPointerException} whose message names the
   * argument.
   *
   * @param value the argument
   * @param name the argument's name as the caller wrote it
   * @param <T> the argument's type
   * @return {@code value}, never {@code null}
   */
  public static <T> T requireNonNull(T value, String name) {
    return Objects.requireNonNull(value, () -> name + " must not be null");
  }

  /**
   * Returns {@code value} or throws if it is {@code null} ({@link NullPointerException}), blank or
   * longer than {@code maxLength} ({@link IllegalArgumentException}); the message names the
   * argument.
   *
   * @param value the argument
   * @param name the argument's name
   * @param maxLength the largest accepted length in UTF-16 code units
   * @return {@code value}, unchanged
   */
  public static String requireText(String value, String name, int maxLength) {
    requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
    requireMaxLength(value, name, maxLength);
    return value;
  }

  /**
   * Throws an {@link IllegalArgumentException} naming the argument when {@code value} is longer
   * than {@code maxLength}; {@code null} passes.
   *
   * @param value the argument, may be {@code null}
   * @param name the argument's name
   * @param maxLength the largest accepted length in UTF-16 code units
   * @return {@code value}, unchanged
   */
  public static String requireMaxLength(String value, String name, int maxLength) {
    if (value != null && value.length() > maxLength) {
      throw new IllegalArgumentException(
          name + " must be at most " + maxLength + " characters, was " + value.length());
    }
    return value;
  }

  /**
   * Returns {@code value} or throws an {@link IllegalArgumentException} naming the argument when
   * it is zero or negative.
   *
   * @param value the argument
   * @param name the argument's name
   * @return {@code value}
   */
  public static int requirePositive(int value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
    return value;
  }

  /**
   * Returns {@code value} or throws when it is {@code null} ({@link NullPointerException}), zero
   * or negative ({@link IllegalArgumentException}); the message names the argument.
   *
   * @param value the argument
   * @param name the argument's name
   * @return {@code value}
   */
  public static Duration requirePositive(Duration value, String name) {
    requireNonNull(value, name);
    if (value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
    return value;
  }

  /**
   * Throws an {@link IllegalArgumentException} naming the argument when {@code value} holds text no
   * backend stores faithfully: the NUL character (PostgreSQL rejects it, others keep it) or an
   * unpaired UTF-16 surrogate (stored as {@code ?} and read back different); {@code null} passes.
   *
   * @param value the argument, may be {@code null}
   * @param name the argument's name
   * @return {@code value}, unchanged
   */
  public static String requireStorable(String value, String name) {
    if (value == null) {
      return null;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\0') {
        throw new IllegalArgumentException(name + " must not contain the NUL character (found at index " + i + ")");
      }
      if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(name + " must not contain an unpaired UTF-16 surrogate (found at index "
            + i + ")");
      }
    }
    return value;
  }

  /**
   * Returns {@code value} or throws when it is {@code null}, not positive or longer than
   * {@link Instants#MAX_LEASE}; the message names the argument.
   *
   * @param value a lease length
   * @param name the argument's name
   * @return {@code value}
   */
  public static Duration requireLease(Duration value, String name) {
    requirePositive(value, name);
    if (value.compareTo(Instants.MAX_LEASE) > 0) {
      throw new IllegalArgumentException(name + " must be at most " + Instants.MAX_LEASE + ", was " + value);
    }
    return value;
  }
}
