package io.claimedoutbox.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.hibernate.Version;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The starter on Spring Boot 3.5 with Boot's own Hibernate 6.6: a clear refusal at start, not a late NoClassDefFoundError. */
@DisplayName("Spring Boot 3.5 with Hibernate 6.6: the starter stops the start, naming both versions")
class SpringBoot35IsRefusedTest {

  @SpringBootApplication
  static class Application {}

  @Test
  void theStartFailsNamingTheVersions() {
    assertThat(SpringBootVersion.getVersion()).startsWith("3.5");
    assertThat(Version.getVersionString()).startsWith("6.6");
    assertThatThrownBy(() -> SpringApplication.run(Application.class, "--spring.main.web-application-type=none",
        "--spring.datasource.url=jdbc:h2:mem:boot35"))
        .rootCause()
        .hasMessageContaining("Spring Boot " + SpringBootVersion.getVersion())
        .hasMessageContaining("Hibernate ORM " + Version.getVersionString())
        .hasMessageContaining("supports Spring Boot 4.0 with Hibernate ORM 7");
  }
}
