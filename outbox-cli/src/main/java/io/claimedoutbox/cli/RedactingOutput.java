package io.claimedoutbox.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * An output stream that passes text on a line at a time through a {@link Redaction}: a line is
 * redacted whole, so a credential is never split between two writes. A flush passes on a partial
 * line too (the progress bar redraws one line with carriage returns).
 */
final class RedactingOutput extends OutputStream {

  private final OutputStream target;
  private final Redaction redaction;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  private RedactingOutput(OutputStream target, Redaction redaction) {
    this.target = target;
    this.redaction = redaction;
  }

  /**
   * @param target where the redacted text goes
   * @param redaction what to hide
   * @return a print stream (UTF-8, flushing at every line) that redacts before it writes
   */
  static PrintStream around(PrintStream target, Redaction redaction) {
    return new PrintStream(new RedactingOutput(target, redaction), true, StandardCharsets.UTF_8);
  }

  @Override
  public synchronized void write(int b) throws IOException {
    line.write(b);
    if (b == '\n' || b == '\r') {
      emit();
    }
  }

  @Override
  public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
    for (int i = offset; i < offset + length; i++) {
      write(bytes[i]);
    }
  }

  @Override
  public synchronized void flush() throws IOException {
    emit();
    target.flush();
  }

  @Override
  public synchronized void close() throws IOException {
    flush();
  }

  private void emit() throws IOException {
    if (line.size() == 0) {
      return;
    }
    target.write(redaction.apply(line.toString(StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
    line.reset();
  }
}
