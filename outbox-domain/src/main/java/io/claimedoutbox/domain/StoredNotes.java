package io.claimedoutbox.domain;

/**
 * Last-error, progress and receipt texts as an entry stores them. Notes often come from exception
 * messages a worker cannot control, so they are made storable instead of rejected.
 */
public final class StoredNotes {

  private StoredNotes() {}

  /**
   * A note as stored: cut to at most {@value OutboxEntry#MAX_NOTE_LENGTH} characters, never inside a
   * surrogate pair, with every NUL character and unpaired surrogate replaced by U+FFFD. Adapters
   * that write notes without building an entry (a Redis script, say) store exactly this.
   *
   * @param text the text, may be {@code null}
   * @return the stored form, {@code null} for {@code null}
   */
  public static String of(String text) {
    if (text == null) {
      return null;
    }
    int max = OutboxEntry.MAX_NOTE_LENGTH;
    StringBuilder stored = new StringBuilder(Math.min(text.length(), max));
    for (int i = 0; i < text.length() && stored.length() < max; i++) {
      char c = text.charAt(i);
      boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
      if (pair) {
        if (stored.length() + 2 > max) {
          break;
        }
        stored.append(c).append(text.charAt(++i));
      } else {
        stored.append(c == '\0' || Character.isSurrogate(c) ? '\uFFFD' : c);
      }
    }
    return stored.toString();
  }
}
