package io.claimedoutbox.adapter.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.ListenState;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Appends of other processes heard through a change stream, where the server has them, and a
 * store that says it polls only where it does not. Two store objects on one collection stand for
 * two processes: the appender's drains are told in-process, the other's only by the stream.
 */
@DisplayName("MongoDB adapter: other processes' appends heard through a change stream")
class MongoChangeStreamTest {

  private static final long WAIT_SECONDS = 20;

  private final MongoFixtures fixture = MongoFixtures.shared();

  @BeforeEach
  void cleanStore() {
    fixture.kit.fixture().clean();
  }

  private boolean serverHasChangeStreams() {
    return MongoCommitChannel.hasChangeStreams(fixture.client, fixture.client.getDatabase(MongoFixtures.DATABASE));
  }

  @Test
  void anAppendOfAnotherProcessWakesThisProcessesDrains() throws Exception {
    assumeTrue(serverHasChangeStreams(), "needs a replica set or sharded cluster for change streams; the tests run on "
        + fixture.backend.kind.description + " (set " + MongoTestBackend.URI_VARIABLE + " to a replica set to run it)");
    MongoOutboxStore appender = fixture.kit.storeBuilder().listenAcrossProcesses(false).build();
    MongoOutboxStore listening = fixture.kit.storeBuilder().build();
    Semaphore heard = new Semaphore(0);
    try (CommitNotifications.Subscription subscription = listening.commitNotifications()
        .subscribe(appended -> heard.release())) {
      assertThat(heard.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS)).as("the wake-up when the stream opens").isTrue();
      assertThat(listening.listenState()).isEqualTo(ListenState.LISTENING);
      heard.drainPermits();

      appender.appendAll(List.of(OutboxMessage.of("order-placed", "o-1".getBytes(StandardCharsets.UTF_8))));

      assertThat(heard.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS)).as("the other process's insert, heard").isTrue();
    }
    assertThat(listening.listenState()).isEqualTo(ListenState.IDLE);
  }

  @Test
  void aServerWithoutChangeStreamsLeavesTheDrainsPolling() {
    assumeFalse(serverHasChangeStreams(), "the server has change streams, so this store listens: "
        + fixture.backend.kind.description);
    MongoOutboxStore listening = fixture.kit.storeBuilder().build();
    try (CommitNotifications.Subscription subscription = listening.commitNotifications().subscribe(appended -> { })) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      while (listening.listenState() == ListenState.STARTING && System.nanoTime() < deadline) {
        // the channel finds out on its own thread; park between looks rather than spin a core of a busy CI machine
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
      }
      assertThat(listening.listenState()).as("found out from hello, said once at INFO, not tried again")
          .isEqualTo(ListenState.POLLING_ONLY);
    }
  }

  @Test
  void listeningTurnedOffIsReportedAsNone() {
    MongoOutboxStore store = fixture.kit.storeBuilder().listenAcrossProcesses(false).build();
    try (CommitNotifications.Subscription subscription = store.commitNotifications().subscribe(appended -> { })) {
      assertThat(store.listenState()).isEqualTo(ListenState.NONE);
    }
  }
}
