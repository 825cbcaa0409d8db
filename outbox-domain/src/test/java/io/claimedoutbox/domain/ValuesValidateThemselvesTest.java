package io.claimedoutbox.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Domain values reject bad input, naming the argument")
class ValuesValidateThemselvesTest {

  @Test
  void workerIdMustBeNonBlankAndPrintable() {
    assertThatThrownBy(() -> WorkerId.of(null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("workerId");
    assertThatThrownBy(() -> WorkerId.of("  ")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("workerId");
    assertThatThrownBy(() -> WorkerId.of("a\nb")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("control");
    assertThatThrownBy(() -> WorkerId.of("x".repeat(WorkerId.MAX_LENGTH + 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 128");
  }

  @Test
  void entryIdAllowsOnlyKeySafeCharacters() {
    assertThat(EntryId.of("order-17:v1.2_x").value()).isEqualTo("order-17:v1.2_x");
    assertThatThrownBy(() -> EntryId.of("a b")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("entryId");
    assertThatThrownBy(() -> EntryId.of("{tag}")).isInstanceOf(IllegalArgumentException.class);
    assertThat(EntryId.of("AZaz09._:-").value()).as("every kind of allowed character, at its range's ends")
        .isEqualTo("AZaz09._:-");
    for (String outside : new String[] {"@", "[", "`", "{", "/", ";", "é", "a\u0000", "a\nb", "a,b"}) {
      assertThatThrownBy(() -> EntryId.of(outside)).as("'%s'", outside).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("entryId");
    }
  }

  @Test
  void generatedEntryIdsAreUniqueAndSortByCreationMillisecond() {
    List<EntryId> ids = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      ids.add(EntryId.generate());
    }
    assertThat(ids).doesNotHaveDuplicates();
    assertThat(ids.get(0).value().substring(0, 8)).isLessThanOrEqualTo(ids.get(999).value().substring(0, 8));
    assertThat(ids.get(0).value()).matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  }

  @Test
  void tokensFollowWithALargerGeneration() {
    ClaimToken first = ClaimToken.following(0);
    ClaimToken second = ClaimToken.following(first.generation());
    assertThat(first.generation()).isEqualTo(1);
    assertThat(second.generation()).isEqualTo(2);
    assertThat(second.nonce()).isNotEqualTo(first.nonce());
    assertThatThrownBy(() -> ClaimToken.following(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ClaimToken(first.nonce(), 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("generation");
  }

  @Test
  void messagesRejectOversizedOrBlankParts() {
    assertThatThrownBy(() -> OutboxMessage.of("t", new byte[OutboxMessage.MAX_PAYLOAD_BYTES + 1]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("payload");
    assertThatThrownBy(() -> OutboxMessage.of(" ", new byte[0]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("topic");
    assertThatThrownBy(() -> OutboxMessage.of("t", null))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("payload");
    assertThatThrownBy(() -> OutboxMessage.of("t", new byte[0]).withHeader("", "v"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("headerName");
    assertThatThrownBy(() -> OutboxMessage.of("t", new byte[0])
            .withHeader("h", "v".repeat(OutboxMessage.MAX_HEADER_VALUE_LENGTH + 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("headerValue");
    assertThatThrownBy(() -> OutboxMessage.of("t", new byte[0]).withOrderingKey(" "))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("orderingKey");
  }

  @Test
  void messagesCopyTheirPayload() {
    byte[] payload = {1, 2, 3};
    OutboxMessage message = OutboxMessage.of("t", payload);
    payload[0] = 9;
    message.payload()[1] = 9;
    assertThat(message.payload()).containsExactly(1, 2, 3);
  }

  @Test
  void transitionInputsValidate() {
    assertThatThrownBy(() -> new RetryableFailure(null, "e")).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("retryAt");
    assertThatThrownBy(() -> new RetryableFailure(Instant.EPOCH, " ")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("error");
    assertThatThrownBy(() -> new DeadLetter(null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("reason");
    assertThatThrownBy(() -> LeaseRenewal.of(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("extension");
    assertThatThrownBy(() -> DeliveryReceipt.of(null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("reference");
  }

  @Test
  void resultsNeverCarryNull() {
    assertThatThrownBy(() -> new ClaimTransitionResult(ClaimTransitionOutcome.APPLIED, null))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("entry");
    assertThatThrownBy(() -> new ClaimTransitionResult(null, null))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("outcome");
  }

  @Test
  void tagValuesAreLowerCase() {
    assertThat(ClaimTransitionOutcome.STALE_CLAIM.tagValue()).isEqualTo("stale_claim");
    assertThat(EntryStatus.DEAD_LETTERED.tagValue()).isEqualTo("dead_lettered");
    assertThat(TransitionKind.SAVE.tagValue()).isEqualTo("save");
  }
}
