package io.claimedoutbox.benchmarks;

/**
 * One drain of one backlog by one contender.
 *
 * @param system the contender
 * @param backend where it ran
 * @param entries the backlog size
 * @param workers the worker threads
 * @param round which round of the run
 * @param entriesPerSecond distinct entries handled per second, from drain start to drain stopped
 * @param duplicates handler calls for an entry already handled
 * @param undone entries not finished in the store after the drain stopped
 * @param storeCalls for our drain, the store calls it made (how many, how big, how busy); else empty
 * @param cpu the CPU the drain used: this JVM, the database server, the machine
 */
record Measurement(String system, String backend, int entries, int workers, int round,
    double entriesPerSecond, long duplicates, long undone, String storeCalls, CpuMeter.Used cpu) {

  /** @return this JVM's CPU seconds per 10,000 entries */
  double jvmCpuPer10k() {
    return cpu.jvmSeconds() * 10_000 / entries;
  }

  /** @return the CPU seconds of this JVM's JIT compiler threads per 10,000 entries (part of {@link #jvmCpuPer10k}); negative when not measured */
  double jitCpuPer10k() {
    return cpu.jitSeconds() < 0 ? -1 : cpu.jitSeconds() * 10_000 / entries;
  }

  /** @return the database server's CPU seconds per 10,000 entries; negative when not measured */
  double serverCpuPer10k() {
    return cpu.serverSeconds() < 0 ? -1 : cpu.serverSeconds() * 10_000 / entries;
  }

  String key() {
    return system + " on " + backend;
  }
}
