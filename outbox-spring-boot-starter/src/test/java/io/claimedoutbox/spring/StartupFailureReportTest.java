package io.claimedoutbox.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/** A start the starter refuses reads as Boot's own report, not as a chain of bean creation failures. */
@ExtendWith(OutputCaptureExtension.class)
@DisplayName("Starter start-up failures: Boot's APPLICATION FAILED TO START with the starter's words")
class StartupFailureReportTest {

  /** An application with the starter and no backend at all. */
  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration(ClaimedOutboxAutoConfiguration.class)
  static class NoBackendApplication {
  }

  @Test
  void aMissingBackendIsReportedAsBootsFailureAnalysis(CapturedOutput output) {
    SpringApplication application = new SpringApplication(NoBackendApplication.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    assertThatThrownBy(application::run).hasRootCauseInstanceOf(OutboxStartupException.class);

    assertThat(output.getAll()).contains("APPLICATION FAILED TO START")
        .containsPattern("Description:\\s+Claimed Outbox found no backend")
        .contains("Action:").contains("Spring Boot section of Claimed Outbox's README");
  }
}
