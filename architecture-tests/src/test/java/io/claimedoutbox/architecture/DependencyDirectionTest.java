package io.claimedoutbox.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The hexagon's dependency direction: adapters → port → domain, never back, never sideways. */
@DisplayName("Dependencies point inward only")
class DependencyDirectionTest {

  private static final JavaClasses PRODUCTION = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.claimedoutbox");

  @Test
  @DisplayName("the classes of every module were imported (the rules below are not vacuous)")
  void everyModuleIsImported() {
    for (String pkg : new String[] {"io.claimedoutbox.domain", "io.claimedoutbox.port",
        "io.claimedoutbox.conformance", "io.claimedoutbox.adapter.jpa", "io.claimedoutbox.adapter.mongodb",
        "io.claimedoutbox.adapter.redis", "io.claimedoutbox.drain", "io.claimedoutbox.micrometer",
        "io.claimedoutbox.jackson", "io.claimedoutbox.rabbitmq", "io.claimedoutbox.kafka",
        "io.claimedoutbox.tracing", "io.claimedoutbox.spring", "io.claimedoutbox.modulith"}) {
      assertThat(PRODUCTION.stream().anyMatch(type -> type.getPackageName().startsWith(pkg)))
          .as("classes imported from %s", pkg)
          .isTrue();
    }
  }

  @Test
  @DisplayName("the domain depends on nothing but the JDK")
  void domainDependsOnlyOnTheJdk() {
    classes().that().resideInAPackage("io.claimedoutbox.domain..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.claimedoutbox.domain..")
        .check(PRODUCTION);
  }

  @Test
  @DisplayName("the port depends only on the domain and the JDK")
  void portDependsOnlyOnTheDomain() {
    classes().that().resideInAPackage("io.claimedoutbox.port..")
        .should().onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "io.claimedoutbox.domain..", "io.claimedoutbox.port..")
        .check(PRODUCTION);
  }

  @Test
  @DisplayName("adapters never depend on each other")
  void adaptersAreIndependent() {
    slices().matching("io.claimedoutbox.adapter.(*)..")
        .should().notDependOnEachOther()
        .allowEmptyShould(false)
        .check(PRODUCTION);
  }

  @Test
  @DisplayName("nothing but tests and the command-line program depends on an adapter")
  void nothingDependsOnAdapters() {
    noClasses().that().resideInAnyPackage("io.claimedoutbox.domain..", "io.claimedoutbox.port..",
            "io.claimedoutbox.conformance..", "io.claimedoutbox.drain..", "io.claimedoutbox.micrometer..",
            "io.claimedoutbox.jackson..", "io.claimedoutbox.rabbitmq..", "io.claimedoutbox.kafka..",
            "io.claimedoutbox.tracing..", "io.claimedoutbox.modulith..")
        .should().dependOnClassesThat().resideInAPackage("io.claimedoutbox.adapter..")
        .check(PRODUCTION);
  }

  @Test
  @DisplayName("the Spring Boot starter is a composition root: it sees the modules, no module sees it but the Modulith integration built on it")
  void nothingDependsOnTheStarter() {
    noClasses().that().resideOutsideOfPackages("io.claimedoutbox.spring..", "io.claimedoutbox.modulith..")
        .should().dependOnClassesThat().resideInAPackage("io.claimedoutbox.spring..")
        .check(PRODUCTION);
  }

  @Test
  @DisplayName("the SQL store is plain JDBC: only the JPA integration sees Jakarta Persistence, and only its bridge and bootstrap Hibernate")
  void sqlStoreIsPlainJdbc() {
    String jpaIntegration = "io\\.claimedoutbox\\.adapter\\.jpa\\."
        + "(JpaOutboxStore|JpaOutbox|HibernateBridge|EntityManagerConnection|OutboxEntryRecord|AfterCompletion)(\\$.*)?";
    noClasses().that().resideInAPackage("io.claimedoutbox.adapter.jpa..").and().haveNameNotMatching(jpaIntegration)
        .should().dependOnClassesThat().resideInAnyPackage("org.hibernate..", "jakarta.persistence..",
            "jakarta.transaction..")
        .check(PRODUCTION);
    noClasses().that().resideInAPackage("io.claimedoutbox.adapter.jpa..")
        .and().haveNameNotMatching("io\\.claimedoutbox\\.adapter\\.jpa\\.(HibernateBridge|JpaOutbox)(\\$.*)?")
        .should().dependOnClassesThat().resideInAPackage("org.hibernate..")
        .check(PRODUCTION);
  }

  @Test
  @DisplayName("the drain sees only the port and SLF4J: no metrics library is forced on its users")
  void drainSeesOnlyThePort() {
    classes().that().resideInAPackage("io.claimedoutbox.drain..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.claimedoutbox.domain..",
            "io.claimedoutbox.port..", "io.claimedoutbox.drain..", "org.slf4j..")
        .check(PRODUCTION);
  }

  @Test
  @DisplayName("the observation listeners see only the port, the drain's stats, Micrometer and SLF4J")
  void observationSeesOnlyThePortAndMicrometer() {
    classes().that().resideInAPackage("io.claimedoutbox.micrometer..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.claimedoutbox.domain..",
            "io.claimedoutbox.port..", "io.claimedoutbox.drain..", "io.claimedoutbox.micrometer..", "io.micrometer..",
            "org.slf4j..")
        .check(PRODUCTION);
  }

  @Test
  @DisplayName("the Jackson payload codecs see only the port and Jackson (3 and 2)")
  void jacksonSeesOnlyThePortAndJackson() {
    classes().that().resideInAPackage("io.claimedoutbox.jackson..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.claimedoutbox.domain..",
            "io.claimedoutbox.port..", "io.claimedoutbox.jackson..", "tools.jackson..", "com.fasterxml.jackson..")
        .check(PRODUCTION);
  }

  @Test
  @DisplayName("the RabbitMQ publisher sees only the drain's handler API, the port and the AMQP client")
  void rabbitMqPublisherSeesOnlyTheDrainAndAmqp() {
    classes().that().resideInAPackage("io.claimedoutbox.rabbitmq..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.claimedoutbox.domain..",
            "io.claimedoutbox.port..", "io.claimedoutbox.drain..", "io.claimedoutbox.rabbitmq..", "com.rabbitmq..")
        .check(PRODUCTION);
  }

  @Test
  @DisplayName("the Kafka publisher sees only the drain's handler API, the port and the Kafka client")
  void kafkaPublisherSeesOnlyTheDrainAndKafka() {
    classes().that().resideInAPackage("io.claimedoutbox.kafka..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.claimedoutbox.domain..",
            "io.claimedoutbox.port..", "io.claimedoutbox.drain..", "io.claimedoutbox.kafka..", "org.apache.kafka..")
        .check(PRODUCTION);
  }

  @Test
  @DisplayName("trace context sees only the drain's handler API, the port and the Micrometer Tracing API")
  void tracingSeesOnlyTheDrainAndTheTracingApi() {
    classes().that().resideInAPackage("io.claimedoutbox.tracing..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.claimedoutbox.domain..",
            "io.claimedoutbox.port..", "io.claimedoutbox.drain..", "io.claimedoutbox.tracing..", "io.micrometer.tracing..")
        .check(PRODUCTION);
  }

  @Test
  @DisplayName("the conformance suite is written against the ports only")
  void conformanceSeesOnlyPortsDomainAndJunit() {
    classes().that().resideInAPackage("io.claimedoutbox.conformance..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.claimedoutbox.domain..",
            "io.claimedoutbox.port..", "io.claimedoutbox.conformance..", "org.junit..", "org.opentest4j..")
        .check(PRODUCTION);
  }
}
