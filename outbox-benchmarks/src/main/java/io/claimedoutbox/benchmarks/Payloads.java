package io.claimedoutbox.benchmarks;

import java.nio.charset.StandardCharsets;

/** Every contender carries the same payload: the entry's number, which the handler reads back. */
final class Payloads {

  private Payloads() {}

  static byte[] of(int number) {
    return Integer.toString(number).getBytes(StandardCharsets.US_ASCII);
  }
}
