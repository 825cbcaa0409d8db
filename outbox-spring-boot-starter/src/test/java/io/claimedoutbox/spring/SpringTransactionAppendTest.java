package io.claimedoutbox.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.domain.OutboxMessage;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** The cases the Boot tests do not reach: no transaction, and a transaction of another resource. */
@DisplayName("Starter: an append joins only a transaction on the outbox's DataSource")
class SpringTransactionAppendTest {

  private final DriverManagerDataSource outboxDataSource = new DriverManagerDataSource("jdbc:h2:mem:unused");
  private final SpringTransactionAppend append = new SpringTransactionAppend(null, outboxDataSource);
  private final List<OutboxMessage> messages = List.of(OutboxMessage.of("orders", new byte[] {1}));

  @AfterEach
  void endTransaction() {
    TransactionSynchronizationManager.setActualTransactionActive(false);
  }

  @Test
  void withoutATransactionTheStoreAppendsOnItsOwn() {
    assertThat(append.appendInCurrentTransaction(messages)).isEmpty();
  }

  @Test
  void aTransactionOfAnotherResourceIsRefusedNotLeftSilently() {
    TransactionSynchronizationManager.setActualTransactionActive(true);
    assertThatThrownBy(() -> append.appendInCurrentTransaction(messages))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("holds no connection of the outbox's DataSource");
  }
}
