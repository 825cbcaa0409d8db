package io.claimedoutbox.port.spi;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Headers as one text value, for adapters that store them in a single column or hash field:
 * {@code name=value} pairs joined by {@code &}, each part URL-encoded, so any text round-trips and
 * the stored value stays readable in a console. The empty map is the empty string.
 */
public final class HeaderText {

  private HeaderText() {}

  /**
   * @param headers the headers, in the order to keep
   * @return their text form
   */
  public static String encode(Map<String, String> headers) {
    StringBuilder text = new StringBuilder();
    headers.forEach((name, value) -> {
      if (text.length() > 0) {
        text.append('&');
      }
      text.append(URLEncoder.encode(name, StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    });
    return text.toString();
  }

  /**
   * @param text a text written by {@link #encode}
   * @return the headers, in their stored order
   * @throws IllegalArgumentException when the text is not in the encoded form
   */
  public static Map<String, String> decode(String text) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (text.isEmpty()) {
      return headers;
    }
    for (String pair : text.split("&", -1)) {
      int equals = pair.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException("header pair '" + pair + "' has no name=value form");
      }
      headers.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
    }
    return headers;
  }
}
