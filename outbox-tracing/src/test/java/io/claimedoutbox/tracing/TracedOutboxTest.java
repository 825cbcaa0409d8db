package io.claimedoutbox.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.ManualExecutor;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.OutboxDrain;
import io.claimedoutbox.drain.OutboxMessageHandler;
import io.claimedoutbox.conformance.TransitionWriteHook;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Trace context through the outbox: the delivery is a child of the request that appended")
class TracedOutboxTest {

  private final SimpleTracer tracer = new SimpleTracer();
  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore store = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
  private final ManualExecutor handlers = new ManualExecutor();
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void shutDown() {
    scheduler.shutdownNow();
  }

  private static String padded(String traceId) {
    return "0".repeat(32 - traceId.length()) + traceId;
  }

  private OutboxEntry appendInRequest(Span request) {
    try (Tracer.SpanInScope scope = tracer.withSpan(request)) {
      return store.append(TracedMessages.withCurrentTrace(OutboxMessage.of("orders", new byte[] {1}), tracer));
    }
  }

  private void deliver(OutboxMessageHandler handler) {
    OutboxDrain drain = OutboxDrain.builder(store, TracedHandler.of(handler, tracer)).workerId(WorkerId.of("traced"))
        .lease(Duration.ofSeconds(30)).clock(clock).executors(handlers, scheduler).build();
    drain.pollOnce();
    handlers.runAll();
  }

  @Test
  void theCurrentSpanIsStoredAsATraceparentHeader() {
    Span request = tracer.nextSpan().name("POST /orders").start();
    OutboxEntry entry = appendInRequest(request);
    request.end();

    String header = entry.message().headers().get(TraceParent.HEADER);
    assertThat(header).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]")
        .isEqualTo(TraceParent.of(request.context()))
        .contains(padded(request.context().traceId())).contains(request.context().spanId());
    assertThat(TracedMessages.withCurrentTrace(OutboxMessage.of("orders", new byte[] {1}), tracer).headers())
        .as("no span current: no header").doesNotContainKey(TraceParent.HEADER);
  }

  @Test
  void theDeliveryContinuesTheRequestsTrace() {
    Span request = tracer.nextSpan().name("POST /orders").start();
    OutboxEntry entry = appendInRequest(request);
    request.end();
    List<String> spanSeenByHandler = new ArrayList<>();

    deliver(message -> spanSeenByHandler.add(tracer.currentSpan().context().spanId()));

    SimpleSpan delivery = tracer.lastSpan();
    assertThat(delivery.getName()).isEqualTo("outbox deliver");
    assertThat(padded(delivery.getTraceId())).isEqualTo(padded(request.context().traceId()));
    assertThat(delivery.getParentId()).isEqualTo(request.context().spanId());
    assertThat(delivery.getTags()).containsEntry("outbox.entry_id", entry.id().value())
        .containsEntry("outbox.topic", "orders").containsEntry("outbox.attempt", "1");
    assertThat(spanSeenByHandler).containsExactly(delivery.getSpanId());
    assertThat(store.find(entry.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
  }

  @Test
  void aMissingOrMalformedTraceparentStartsANewTrace() {
    store.append(OutboxMessage.of("orders", new byte[] {1}).withHeader(TraceParent.HEADER, "not-a-traceparent"));

    deliver(message -> { });

    SimpleSpan delivery = tracer.lastSpan();
    assertThat(delivery.getName()).isEqualTo("outbox deliver");
    assertThat(delivery.getParentId()).as("a root span").isNullOrEmpty();
  }

  @Test
  void aFailingHandlerMarksItsSpan() {
    OutboxEntry entry = store.append(OutboxMessage.of("orders", new byte[] {1}));

    deliver(message -> {
      throw new IllegalStateException("broker down");
    });

    assertThat(tracer.lastSpan().getError()).hasMessage("broker down");
    assertThat(store.find(entry.id()).orElseThrow().status()).isEqualTo(EntryStatus.FAILED);
  }
}
