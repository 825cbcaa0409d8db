package io.claimedoutbox.sample;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/** The trace each entry's delivery runs in, logged and kept for a look (tests read it). */
@Component
public class DeliveryLog {

  private static final Logger LOG = LoggerFactory.getLogger(DeliveryLog.class);

  private final Map<String, String> traceOfEntry = new ConcurrentHashMap<>();

  void publishing(String entryId, String traceId) {
    traceOfEntry.put(entryId, traceId);
    LOG.info("publishing outbox entry {} in trace {}", entryId, traceId);
  }

  /**
   * @param entryId an outbox entry
   * @return the trace id its delivery ran in, once it started
   */
  public Optional<String> traceOf(String entryId) {
    return Optional.ofNullable(traceOfEntry.get(entryId));
  }
}
