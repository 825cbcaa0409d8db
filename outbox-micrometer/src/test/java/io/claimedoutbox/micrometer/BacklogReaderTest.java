package io.claimedoutbox.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StatusCounts;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Backlog reader: one store read per refresh for every caller, a failure included")
class BacklogReaderTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore store = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);

  /** Counts the reads, and fails them while {@code down} is set. */
  private final class CountingOperations implements OutboxOperations {
    final AtomicInteger reads = new AtomicInteger();
    volatile boolean down;

    @Override
    public StatusCounts countByStatus() {
      reads.incrementAndGet();
      if (down) {
        throw new OutboxStoreException("store unreachable");
      }
      return store.countByStatus();
    }

    @Override
    public Optional<Duration> oldestDueAge() {
      return store.oldestDueAge();
    }

    @Override
    public List<OutboxEntry> deadLetters(DeadLetterQuery query) {
      return store.deadLetters(query);
    }

    @Override
    public RequeueResult requeue(EntryId id) {
      return store.requeue(id);
    }

    @Override
    public int purgeFinished(Duration olderThan, int batchSize) {
      return store.purgeFinished(olderThan, batchSize);
    }

    @Override
    public long countPurgeable(Duration olderThan) {
      return store.countPurgeable(olderThan);
    }
  }

  @Test
  void callersShareOneReadPerRefreshAndAFailureServesItsIntervalToo() {
    CountingOperations operations = new CountingOperations();
    BacklogReader reader = BacklogReader.of(operations, Duration.ofSeconds(15), clock);
    store.append(OutboxMessage.of("orders", new byte[] {1}));

    assertThat(reader.read().counts().of(EntryStatus.PENDING)).isEqualTo(1);
    reader.read();
    assertThat(operations.reads).as("reads within the interval").hasValue(1);

    clock.advance(Duration.ofSeconds(15));
    operations.down = true;
    assertThatThrownBy(reader::read).isInstanceOf(OutboxStoreException.class);
    operations.down = false;
    assertThatThrownBy(reader::read).as("the failed reading serves its interval").isInstanceOf(OutboxStoreException.class);
    clock.advance(Duration.ofSeconds(15));
    assertThat(reader.read().counts().total()).isEqualTo(1);
    assertThat(operations.reads).hasValue(3);
  }
}
