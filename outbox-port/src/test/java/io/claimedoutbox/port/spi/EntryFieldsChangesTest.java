package io.claimedoutbox.port.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("EntryFields.encodeChanges: the stored state after a write is the state before with exactly the changes")
class EntryFieldsChangesTest {

  private static final Instant APPENDED = Instant.parse("2030-01-01T00:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(30);

  static Stream<Arguments> writes() {
    OutboxEntry claimed = OutboxEntry.appended(EntryId.of("e-1"), OutboxMessage.of("t", new byte[] {1}), APPENDED,
        WriteStamp.fresh()).claimedBy(WorkerId.of("w"), APPENDED.plusSeconds(1), LEASE, WriteStamp.fresh());
    OutboxEntry withNotes = LeaseRenewal.withProgress(LEASE, "half way").applyTo(claimed, APPENDED.plusSeconds(2),
        WriteStamp.fresh());
    OutboxEntry failed = new RetryableFailure(APPENDED.plusSeconds(5), "broker down")
        .applyTo(withNotes, APPENDED.plusSeconds(3), WriteStamp.fresh());
    OutboxEntry failedBefore = failed.claimedBy(WorkerId.of("other"), APPENDED.plusSeconds(6), LEASE, WriteStamp.fresh());
    List<TransitionRequest> requests = List.of(DeliveryReceipt.none(), DeliveryReceipt.of("receipt-7"),
        new RetryableFailure(APPENDED.plusSeconds(60), "timeout"), new DeadLetter("poison"), LeaseRenewal.of(LEASE),
        LeaseRenewal.withProgress(LEASE, "almost"));
    List<Arguments> cases = new ArrayList<>();
    for (OutboxEntry basis : List.of(claimed, withNotes, failedBefore)) {
      for (TransitionRequest request : requests) {
        cases.add(Arguments.of(basis, request.applyTo(basis, APPENDED.plusSeconds(10), WriteStamp.fresh())));
      }
    }
    // a claim of a failed entry (owner, token, generation, attempts and times change at once); no change at all
    cases.add(Arguments.of(failed, failedBefore));
    cases.add(Arguments.of(failedBefore, failedBefore));
    return cases.stream();
  }

  @ParameterizedTest
  @MethodSource("writes")
  void changesTurnTheStoredBasisIntoTheStoredNext(OutboxEntry basis, OutboxEntry next) {
    Map<String, byte[]> stored = new LinkedHashMap<>(EntryFields.encodeState(basis));
    List<String> touched = new ArrayList<>();
    EntryFields.encodeChanges(basis, next, new EntryFields.FieldChanges() {
      @Override
      public void set(String name, byte[] value) {
        touched.add(name);
        stored.put(name, value);
      }

      @Override
      public void remove(String name) {
        touched.add(name);
        stored.remove(name);
      }
    });

    Map<String, byte[]> expected = EntryFields.encodeState(next);
    assertThat(stored.keySet()).isEqualTo(expected.keySet());
    expected.forEach((name, value) -> assertThat(stored.get(name)).as(name).isEqualTo(value));
    Map<String, byte[]> before = EntryFields.encodeState(basis);
    List<String> differing = new ArrayList<>();
    for (String name : EntryFields.ALL) {
      if (!Arrays.equals(before.get(name), expected.get(name))) {
        differing.add(name);
      }
    }
    assertThat(touched).as("only the fields that differ are sent").containsExactlyInAnyOrderElementsOf(differing);
  }
}
