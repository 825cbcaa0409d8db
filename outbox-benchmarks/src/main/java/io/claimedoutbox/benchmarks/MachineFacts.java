package io.claimedoutbox.benchmarks;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/** The machine and server versions a run was measured on, for the report. */
final class MachineFacts {

  private final List<String> facts = new ArrayList<>();

  MachineFacts() {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    facts.add(LocalDate.now() + ", " + os.getAvailableProcessors() + " cores, "
        + Math.round(os.getTotalMemorySize() / (1024.0 * 1024 * 1024)) + " GiB, " + os.getName() + " " + os.getArch()
        + ", Java " + Runtime.version());
  }

  void describe(BenchDatabase database) throws SQLException {
    try (Connection connection = database.dataSource().getConnection();
        Statement statement = connection.createStatement();
        ResultSet version = statement.executeQuery("SELECT version()")) {
      version.next();
      String text = version.getString(1);
      facts.add(database.name() + " " + (text.length() > 60 ? text.substring(0, 60) + "…" : text)
          + " on loopback");
    }
  }

  void describe(String name, HostAndPort server) {
    try (Jedis jedis = new Jedis(server)) {
      String version = jedis.info("server").lines().filter(line -> line.startsWith("redis_version:"))
          .map(line -> line.substring("redis_version:".length()).strip()).findFirst().orElse("?");
      facts.add(name + " " + version + " on loopback (the cluster: three local masters)");
    }
  }

  List<String> facts() {
    return facts;
  }
}
