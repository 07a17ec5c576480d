package dev.once.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Decodes a record's value as UTF-8 like Kafka's {@code StringDeserializer}, but marks a value that
 * is not valid UTF-8 with the header {@link #MALFORMED}, which {@link InboxRecords} refuses.
 * Kafka's own decoder replaces each malformed byte with U+FFFD, so that a corrupted payload such as
 * {@code {"a":"\xff"}} became valid JSON with other text in it and was applied; a deserializer that
 * threw instead would fail the poll rather than dead-letter the one record.
 */
public final class Utf8ValueDeserializer implements Deserializer<String> {
  /** Set on a record whose value is not valid UTF-8. */
  public static final String MALFORMED = "once-malformed-utf8";

  @Override
  public String deserialize(String topic, byte[] data) {
    return data == null ? null : new String(data, StandardCharsets.UTF_8);
  }

  @Override
  public String deserialize(String topic, Headers headers, byte[] data) {
    if (data == null) {
      return null;
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(data))
          .toString();
    } catch (CharacterCodingException e) {
      headers.add(MALFORMED, new byte[0]);
      return new String(data, StandardCharsets.UTF_8);
    }
  }
}
