package io.claimedoutbox.spring;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.SpringBootVersion;

/**
 * Fails the start, naming the versions, where the starter would fail later and obscurely: it is
 * built on Spring Boot 4's modules with Hibernate ORM 7 (Jakarta Persistence 3.2); Spring Boot 3.5
 * brings Hibernate 6.6. The library wired by hand runs on either.
 */
final class HibernateVersionCheck {

  private static final Pattern MAJOR = Pattern.compile("^(\\d+)\\.");

  private HibernateVersionCheck() {}

  static void requireSupported() {
    String hibernate;
    try {
      hibernate = org.hibernate.Version.getVersionString();
    } catch (NoClassDefFoundError absent) {
      throw new OutboxStartupException("Claimed Outbox's JPA backend needs Hibernate ORM 7 on the classpath", absent);
    }
    check(SpringBootVersion.getVersion(), hibernate).ifPresent(problem -> {
      throw new OutboxStartupException(problem);
    });
  }

  /**
   * @param boot the Spring Boot version, may be null (unknown)
   * @param hibernate the Hibernate ORM version
   * @return what is wrong, empty when the pair is supported
   */
  static Optional<String> check(String boot, String hibernate) {
    int hibernateMajor = major(hibernate);
    int bootMajor = boot == null ? 4 : major(boot);
    if (hibernateMajor >= 7 && bootMajor >= 4) {
      return Optional.empty();
    }
    return Optional.of("Claimed Outbox's Spring Boot starter supports Spring Boot 4.0 with Hibernate ORM 7"
        + " (Jakarta Persistence 3.2); this application runs Spring Boot " + boot + " with Hibernate ORM " + hibernate
        + ". Upgrade to Spring Boot 4.0, or wire the store by hand (JdbcOutboxStore.builder(dataSource) needs no Hibernate;"
        + " JpaOutboxStore runs on Hibernate 6.6 too)");
  }

  private static int major(String version) {
    Matcher matcher = MAJOR.matcher(version == null ? "" : version);
    return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
  }
}
