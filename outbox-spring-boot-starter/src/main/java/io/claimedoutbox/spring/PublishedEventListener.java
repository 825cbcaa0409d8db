package io.claimedoutbox.spring;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.PayloadApplicationEvent;
import org.springframework.context.event.GenericApplicationListener;
import org.springframework.core.ResolvableType;

/**
 * Sees every event published in the context, as the object the application passed to
 * {@code publishEvent}: an {@code ApplicationEvent} as it is, any other object unwrapped from Spring's
 * {@code PayloadApplicationEvent}. Runs on the publishing thread, inside the publisher's transaction
 * when there is one. The base of the listeners that append chosen events to the outbox.
 */
public abstract class PublishedEventListener implements GenericApplicationListener {

  /** For subclasses. */
  protected PublishedEventListener() {}

  @Override
  public final boolean supportsEventType(ResolvableType eventType) {
    return true;
  }

  @Override
  public final void onApplicationEvent(ApplicationEvent event) {
    onPublished(event instanceof PayloadApplicationEvent<?> wrapped ? wrapped.getPayload() : event);
  }

  /**
   * @param event the object the application published
   */
  protected abstract void onPublished(Object event);
}
