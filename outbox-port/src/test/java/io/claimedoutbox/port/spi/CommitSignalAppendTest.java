package io.claimedoutbox.port.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.CommitNotifications;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("CommitSignal: an append offers, writes and reports in that order, once, and announces what others can take")
class CommitSignalAppendTest {

  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final WorkerId TAKER = WorkerId.of("taker");

  /** A remote channel that counts what it is asked to announce and hands out what it would hear. */
  private static final class CountingRemote implements CommitSignal.RemoteCommits {
    final AtomicInteger announced = new AtomicInteger();
    final AtomicReference<Runnable> heard = new AtomicReference<>();

    @Override
    public AutoCloseable listen(Runnable heard) {
      this.heard.set(heard);
      return () -> this.heard.set(null);
    }

    @Override
    public void announce() {
      announced.incrementAndGet();
    }
  }

  /** A drain that takes every entry offered, and records what it is told. */
  private static final class TakingListener implements CommitNotifications.Listener {
    final List<String> told = new ArrayList<>();

    @Override
    public void entriesCommitted(List<OutboxEntry> appended) {
      told.add("committed " + appended.size());
    }

    @Override
    public Optional<CommitNotifications.ClaimOnAppend> takeOnAppend(OutboxEntry entry) {
      told.add("offered " + entry.id().value());
      return Optional.of(new CommitNotifications.ClaimOnAppend(TAKER, Duration.ofSeconds(30)));
    }

    @Override
    public void notCommitted(OutboxEntry written) {
      told.add("not committed " + written.id().value());
    }
  }

  private final CountingRemote remote = new CountingRemote();
  private final CommitSignal signal = CommitSignal.withRemote(remote);
  private final TakingListener drain = new TakingListener();

  private static OutboxEntry fresh(String id) {
    return OutboxEntry.appended(EntryId.of(id), OutboxMessage.of("orders", new byte[] {1}), NOW, WriteStamp.fresh());
  }

  @Test
  @DisplayName("appendCommitted writes the entries as the drain took them, then reports the commit")
  void writesWhatTheOfferReturnedThenReportsTheCommit() {
    signal.subscribe(drain);
    List<OutboxEntry> seenByTheWrite = new ArrayList<>();

    List<OutboxEntry> written = signal.appendCommitted(List.of(fresh("e-1")), NOW, entries -> {
      drain.told.add("write");
      seenByTheWrite.addAll(entries);
    });

    assertThat(drain.told).containsExactly("offered e-1", "write", "committed 1");
    assertThat(seenByTheWrite).isEqualTo(written);
    assertThat(written).singleElement().satisfies(entry -> {
      assertThat(entry.status()).isEqualTo(EntryStatus.CLAIMED);
      assertThat(entry.currentClaim().orElseThrow().owner()).isEqualTo(TAKER);
    });
  }

  @Test
  @DisplayName("a write that fails is reported as not committed and its failure comes out as it was thrown")
  void aFailedWriteIsReportedAsNotCommitted() {
    signal.subscribe(drain);
    IOException cut = new IOException("connection cut");

    assertThatThrownBy(() -> signal.appendCommitted(List.of(fresh("e-1"), fresh("e-2")), NOW, entries -> {
      throw cut;
    })).isSameAs(cut);

    assertThat(drain.told).containsExactly("offered e-1", "offered e-2", "not committed e-1", "not committed e-2");
    assertThat(remote.announced).hasValue(0);
  }

  @Test
  @DisplayName("appendUncommitted writes and leaves the commit to be reported by whoever ends the transaction")
  void anUncommittedAppendReportsNothingUntilTold() {
    signal.subscribe(drain);

    List<OutboxEntry> written = signal.appendUncommitted(List.of(fresh("e-1")), NOW, entries -> { });

    assertThat(drain.told).containsExactly("offered e-1");
    signal.notCommitted(written);
    assertThat(drain.told).containsExactly("offered e-1", "not committed e-1");
    assertThat(remote.announced).hasValue(0);
  }

  @Test
  @DisplayName("a commit is announced to other processes unless a drain here took every entry of it")
  void announcesOnlyWhatOthersCouldClaim() {
    signal.appendCommitted(List.of(fresh("e-1")), NOW, entries -> { });
    assertThat(remote.announced).as("nobody here took it").hasValue(1);

    signal.subscribe(drain);
    signal.appendCommitted(List.of(fresh("e-2")), NOW, entries -> { });
    assertThat(remote.announced).as("a drain here took it").hasValue(1);

    signal.committed();
    assertThat(remote.announced).as("a commit reported without its entries").hasValue(2);
  }

  @Test
  @DisplayName("a commit heard from another process wakes the drains here and is not announced back")
  void aCommitHeardFromElsewhereIsNotEchoed() {
    signal.subscribe(drain);

    remote.heard.get().run();

    assertThat(drain.told).containsExactly("committed 0");
    assertThat(remote.announced).hasValue(0);
  }
}
