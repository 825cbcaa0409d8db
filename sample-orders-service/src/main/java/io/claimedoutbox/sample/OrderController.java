package io.claimedoutbox.sample;

import io.micrometer.tracing.Tracer;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** {@code POST /orders}. */
@RestController
public class OrderController {

  /** The request body. */
  public record OrderRequest(String customerId, String item, int quantity) {}

  private final OrderService service;
  private final Tracer tracer;

  OrderController(OrderService service, Tracer tracer) {
    this.service = service;
    this.tracer = tracer;
  }

  @PostMapping("/orders")
  ResponseEntity<Map<String, String>> place(@RequestBody OrderRequest request) {
    OrderService.Placed placed = service.place(request.customerId(), request.item(), request.quantity());
    String traceId = tracer.currentSpan() == null ? "" : tracer.currentSpan().context().traceId();
    return ResponseEntity.status(HttpStatus.CREATED)
        .body(Map.of("orderId", placed.orderId(), "eventId", placed.eventId(), "traceId", traceId));
  }

  @ExceptionHandler(OrderService.InvalidOrderException.class)
  ResponseEntity<Map<String, String>> invalid(OrderService.InvalidOrderException rejected) {
    return ResponseEntity.badRequest().body(Map.of("error", rejected.getMessage()));
  }
}
