package io.claimedoutbox.jackson;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.port.payload.PayloadCodec;
import io.claimedoutbox.port.payload.UndecodablePayloadException;
import java.io.IOException;

/**
 * JSON payloads through a Jackson {@link ObjectMapper} the application configures (modules, naming,
 * unknown-property handling are its choices; the codec adds none). Content type
 * {@code application/json}. Thread-safe, as the mapper is once configured.
 */
public final class JacksonPayloadCodec implements PayloadCodec {

  private final ObjectMapper mapper;

  private JacksonPayloadCodec(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /**
   * @param mapper the application's configured mapper; not changed by the codec
   * @return the codec
   */
  public static JacksonPayloadCodec using(ObjectMapper mapper) {
    return new JacksonPayloadCodec(Arguments.requireNonNull(mapper, "mapper"));
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
    } catch (JsonProcessingException unwritable) {
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
    } catch (IOException unreadable) {
      throw new UndecodablePayloadException("JSON payload does not read as " + type.getName() + ": "
          + unreadable.getMessage().lines().findFirst().orElse(""), unreadable);
    }
  }
}
