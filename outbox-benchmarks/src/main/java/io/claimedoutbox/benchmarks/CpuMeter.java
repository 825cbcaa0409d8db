package io.claimedoutbox.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Where the CPU went while one contender drained: this JVM's own CPU time and the part of it its
 * JIT compiler threads took, the CPU time of the local database server's processes (read from
 * {@code /proc}, so only for a server on this machine), and how busy the whole machine was. A reader
 * can then tell a slow drain (much CPU per entry) from a busy machine (other processes took the
 * cores), and a drain still being compiled from one that runs compiled code.
 */
final class CpuMeter {

  /** The Linux clock ticks per second of {@code /proc/<pid>/stat}; 100 on every kernel built with its default. */
  private static final double TICKS_PER_SECOND = 100.0;

  /** The CPU used between {@link #start} and {@link Reading#stop}. */
  record Used(double jvmSeconds, double jitSeconds, double serverSeconds, double machineBusyShare,
      double otherSeconds, String load) {

    /** @return CPU seconds per 10,000 entries (the JVM's, of it compiling, the server's) and the machine's state */
    String per10k(int entries) {
      double scale = 10_000.0 / entries;
      return String.format(Locale.ROOT, "%.2f | %s | %s | %.0f%% | %.2f | %s", jvmSeconds * scale,
          seconds(jitSeconds < 0 ? -1 : jitSeconds * scale), seconds(serverSeconds < 0 ? -1 : serverSeconds * scale),
          machineBusyShare * 100, otherSeconds * scale, load);
    }
  }

  /** @return CPU seconds as the reports print them: two decimals, or — when not measured (negative) */
  static String seconds(double value) {
    return value < 0 ? "—" : String.format(Locale.ROOT, "%.2f", value);
  }

  /** A started measurement. */
  static final class Reading {
    private final Set<String> serverProcesses;
    private final long jvmNanos;
    private final long jitTicks;
    private final long serverTicks;
    private final long[] machine;
    private final long startedNanos;

    private Reading(Set<String> serverProcesses) {
      this.serverProcesses = serverProcesses;
      this.jvmNanos = jvmCpuNanos();
      this.jitTicks = compilerThreadTicks();
      this.serverTicks = serverTicks(serverProcesses);
      this.machine = machineTicks();
      this.startedNanos = System.nanoTime();
    }

    Used stop() {
      double wall = (System.nanoTime() - startedNanos) / 1e9;
      double jvm = (jvmCpuNanos() - jvmNanos) / 1e9;
      long jitNow = compilerThreadTicks();
      // a compiler thread that ended took its ticks along: never below zero
      double jit = jitTicks < 0 || jitNow < 0 ? -1 : Math.max(0, jitNow - jitTicks) / TICKS_PER_SECOND;
      long serverNow = serverTicks(serverProcesses);
      double server = serverTicks < 0 || serverNow < 0 ? -1 : (serverNow - serverTicks) / TICKS_PER_SECOND;
      long[] now = machineTicks();
      double busyShare = 0;
      double busySeconds = 0;
      if (machine != null && now != null && now[1] > machine[1]) {
        busyShare = (double) (now[0] - machine[0]) / (now[1] - machine[1]);
        busySeconds = busyShare * wall * Runtime.getRuntime().availableProcessors();
      }
      double other = Math.max(0, busySeconds - jvm - Math.max(0, server));
      return new Used(jvm, jit, server, busyShare, other, loadAverage());
    }
  }

  private CpuMeter() {}

  /**
   * @param backend the backend's name as the contenders give it
   * @return a measurement started now, counting the processes of that backend's server
   */
  static Reading start(String backend) {
    return new Reading(serverProcessNames(backend));
  }

  private static Set<String> serverProcessNames(String backend) {
    String name = backend.toLowerCase(Locale.ROOT);
    if (name.startsWith("postgresql")) {
      return Set.of("postgres");
    }
    if (name.startsWith("mariadb")) {
      return Set.of("mariadbd", "mysqld");
    }
    if (name.startsWith("redis")) {
      return Set.of("redis-server");
    }
    return Set.of();
  }

  private static long jvmCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * @return user plus system ticks of this JVM's JIT compiler threads (HotSpot names them "C1
   *     CompilerThread…" and "C2 CompilerThread…"; the kernel keeps 15 characters); -1 when unreadable
   *     or none runs. A thread that ended since the start takes its ticks with it, so this can only
   *     undercount.
   */
  private static long compilerThreadTicks() {
    return ticksOf(Path.of("/proc/self/task"), "*",
        name -> name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre"));
  }

  /** @return user plus system ticks of every process with one of these names; -1 when none is readable */
  private static long serverTicks(Set<String> names) {
    return names.isEmpty() ? -1 : ticksOf(Path.of("/proc"), "[0-9]*", names::contains);
  }

  /**
   * @param directory {@code /proc} or a process's {@code task} directory
   * @return user plus system ticks of the entries whose name passes; -1 when unreadable or none passes
   */
  private static long ticksOf(Path directory, String glob, Predicate<String> name) {
    long ticks = 0;
    boolean found = false;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, glob)) {
      for (Path entry : entries) {
        String stat;
        try {
          stat = Files.readString(entry.resolve("stat"));
        } catch (IOException gone) {
          continue;
        }
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open || !name.test(stat.substring(open + 1, close))) {
          continue;
        }
        // after the name: state is field 3; utime and stime are fields 14 and 15
        String[] fields = stat.substring(close + 2).split(" ");
        ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        found = true;
      }
    } catch (IOException | RuntimeException unreadable) {
      return -1;
    }
    return found ? ticks : -1;
  }

  /** @return busy and total ticks of all cores from {@code /proc/stat}; null when unreadable */
  private static long[] machineTicks() {
    try {
      String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long total = 0;
      for (int i = 1; i < cpu.length; i++) {
        total += Long.parseLong(cpu[i]);
      }
      long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]);
      return new long[] {total - idle, total};
    } catch (IOException | RuntimeException unreadable) {
      return null;
    }
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException unreadable) {
      return "?";
    }
  }
}
