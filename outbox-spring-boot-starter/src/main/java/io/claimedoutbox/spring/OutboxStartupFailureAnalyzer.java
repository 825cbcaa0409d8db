package io.claimedoutbox.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link OutboxStartupException}, however deep in a bean creation failure, into Boot's
 * "APPLICATION FAILED TO START" report: the exception's message as the description, and where the
 * starter's settings are documented as the action.
 */
public final class OutboxStartupFailureAnalyzer extends AbstractFailureAnalyzer<OutboxStartupException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, OutboxStartupException cause) {
    return new FailureAnalysis(cause.getMessage(), "Do what the description says; every claimed-outbox.* property"
        + " and what the starter needs on the class path is in the Spring Boot section of Claimed Outbox's README.",
        cause);
  }
}
