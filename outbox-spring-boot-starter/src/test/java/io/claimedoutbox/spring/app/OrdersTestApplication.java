package io.claimedoutbox.spring.app;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.drain.OutboxMessageHandler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** A minimal application for the starter's tests: an order entity, a service, a handler that records deliveries. */
@SpringBootApplication
public class OrdersTestApplication {

  /** What the drain delivered, in order, and a latch the tests wait on. */
  public static final class Deliveries {
    private final List<OutboxEntry> delivered = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch expected = new CountDownLatch(0);

    /** @param count how many deliveries to wait for from now */
    public void expect(int count) {
      expected = new CountDownLatch(count);
    }

    /** @return the latch of {@link #expect} */
    public CountDownLatch latch() {
      return expected;
    }

    /** @return every delivered entry */
    public List<OutboxEntry> all() {
      return delivered;
    }

    void add(OutboxEntry entry) {
      delivered.add(entry);
      expected.countDown();
    }
  }

  @Bean
  Deliveries deliveries() {
    return new Deliveries();
  }

  @Bean
  OutboxMessageHandler recordingHandler(Deliveries deliveries) {
    return message -> deliveries.add(message.entry());
  }
}
