package io.claimedoutbox.jackson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.claimedoutbox.conformance.ManualExecutor;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.OutboxDrain;
import io.claimedoutbox.drain.TypedHandler;
import io.claimedoutbox.conformance.TransitionWriteHook;
import io.claimedoutbox.port.payload.PayloadCodec;
import io.claimedoutbox.port.payload.TypedMessages;
import io.claimedoutbox.port.payload.UndecodablePayloadException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

/** Every test runs on both codecs: Jackson 3 ({@code tools.jackson}) and Jackson 2 ({@code com.fasterxml}). */
@DisplayName("Jackson payloads: append an object, receive it typed; an unreadable payload is dead-lettered")
class JacksonPayloadsTest {

  record OrderPlaced(String orderId, long cents, List<String> items) {}

  record Renamed(String id) {}

  /** A value no mapper can write: reading its field fails. */
  record Unwritable(String secret) {
    @Override
    public String secret() {
      throw new IllegalStateException("not to be read");
    }
  }

  static Stream<PayloadCodec> codecs() {
    return Stream.of(Jackson3PayloadCodec.using(new JsonMapper()), JacksonPayloadCodec.using(new ObjectMapper()));
  }

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore store = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final ManualExecutor handlers = new ManualExecutor();

  @AfterEach
  void shutDown() {
    scheduler.shutdownNow();
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void anObjectRoundTripsThroughTheOutboxWithItsTypeHeaders(PayloadCodec codec) {
    OrderPlaced placed = new OrderPlaced("o-17", 4_250, List.of("book", "pen"));
    OutboxEntry entry = store.append(TypedMessages.of("orders", placed, codec));

    assertThat(entry.message().headers()).containsEntry(TypedMessages.CONTENT_TYPE, "application/json")
        .containsEntry(TypedMessages.PAYLOAD_TYPE, OrderPlaced.class.getName());
    // Jackson 3 sorts properties by name by default, Jackson 2 keeps the record's order
    assertThat(new String(entry.message().payload(), StandardCharsets.UTF_8))
        .isIn("{\"orderId\":\"o-17\",\"cents\":4250,\"items\":[\"book\",\"pen\"]}",
            "{\"cents\":4250,\"items\":[\"book\",\"pen\"],\"orderId\":\"o-17\"}");
    assertThat(TypedMessages.read(store.find(entry.id()).orElseThrow(), OrderPlaced.class, codec)).isEqualTo(placed);
  }

  @Test
  void payloadsOfOneJacksonReadWithTheOther() {
    OrderPlaced placed = new OrderPlaced("o-9", 1, List.of("cup"));
    PayloadCodec three = Jackson3PayloadCodec.using(new JsonMapper());
    PayloadCodec two = JacksonPayloadCodec.using(new ObjectMapper());

    assertThat(two.decode(three.encode(placed), OrderPlaced.class)).isEqualTo(placed);
    assertThat(three.decode(two.encode(placed), OrderPlaced.class)).isEqualTo(placed);
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void badValuesAndForeignPayloadsAreRejectedNamingWhatFailed(PayloadCodec codec) {
    assertThatThrownBy(() -> TypedMessages.of("orders", new Unwritable("s"), codec))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(Unwritable.class.getName());
    assertThatThrownBy(() -> TypedMessages.of("orders", null, codec))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("value");
    OutboxEntry foreign = store.append(OutboxMessage.of("orders", new byte[] {1, 2, 3})
        .withHeader(TypedMessages.CONTENT_TYPE, "application/x-protobuf"));
    assertThatThrownBy(() -> TypedMessages.read(foreign, OrderPlaced.class, codec))
        .isInstanceOf(UndecodablePayloadException.class)
        .hasMessageContaining(foreign.id().value()).hasMessageContaining("application/x-protobuf");
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void theDrainHandsTheObjectToTheHandlerAndDeadLettersAPayloadThatNoLongerReads(PayloadCodec codec) {
    OutboxEntry good = store.append(TypedMessages.of("orders", new OrderPlaced("o-1", 100, List.of()), codec));
    OutboxEntry stale = store.append(TypedMessages.of("orders", new Renamed("o-2"), codec));
    List<OrderPlaced> received = new ArrayList<>();
    OutboxDrain drain = OutboxDrain.builder(store, TypedHandler.of(OrderPlaced.class, codec,
            (order, message) -> received.add(order)))
        .workerId(WorkerId.of("typed")).lease(Duration.ofSeconds(30)).clock(clock)
        .executors(handlers, scheduler).build();

    drain.pollOnce();
    handlers.runAll();

    assertThat(received).containsExactly(new OrderPlaced("o-1", 100, List.of()));
    assertThat(store.find(good.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
    OutboxEntry deadLettered = store.find(stale.id()).orElseThrow();
    assertThat(deadLettered.status()).isEqualTo(EntryStatus.DEAD_LETTERED);
    assertThat(deadLettered.lastError().orElseThrow()).contains("payload is not a " + OrderPlaced.class.getName())
        .contains(stale.id().value());
  }
}
