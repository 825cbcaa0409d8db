package io.claimedoutbox.jackson;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.port.payload.PayloadCodec;
import io.claimedoutbox.port.payload.UndecodablePayloadException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/**
 * JSON payloads through a Jackson 3 {@link ObjectMapper} ({@code tools.jackson}, Spring Boot 4's
 * default), configured by the application; the codec adds nothing to it. Content type
 * {@code application/json}, so payloads written by {@link JacksonPayloadCodec} (Jackson 2) read
 * here and the other way round, field names and types allowing. Thread-safe, as the mapper is.
 */
public final class Jackson3PayloadCodec implements PayloadCodec {

  private final ObjectMapper mapper;

  private Jackson3PayloadCodec(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /**
   * @param mapper the application's mapper (a {@code JsonMapper}); not changed by the codec
   * @return the codec
   */
  public static Jackson3PayloadCodec using(ObjectMapper mapper) {
    return new Jackson3PayloadCodec(Arguments.requireNonNull(mapper, "mapper"));
  }

  @Override
  public String contentType() {
    return "application/json";
  }

  @Override
  public byte[] encode(Object value) {
    Arguments.requireNonNull(value, "value");
    try {
      return mapper.writeValueAsBytes(value);
    } catch (JacksonException unwritable) {
      throw new IllegalArgumentException("value of type " + value.getClass().getName()
          + " cannot be written as JSON: " + unwritable.getOriginalMessage(), unwritable);
    }
  }

  @Override
  public <T> T decode(byte[] payload, Class<T> type) {
    Arguments.requireNonNull(payload, "payload");
    Arguments.requireNonNull(type, "type");
    try {
      return mapper.readValue(payload, type);
    } catch (JacksonException unreadable) {
      throw new UndecodablePayloadException("JSON payload does not read as " + type.getName() + ": "
          + unreadable.getOriginalMessage().lines().findFirst().orElse(""), unreadable);
    }
  }
}
