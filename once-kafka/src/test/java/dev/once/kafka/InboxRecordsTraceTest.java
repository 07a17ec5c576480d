package dev.once.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.inbox.InboxMessage;
import dev.once.tracing.TraceContext;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A record's trace headers become its message's trace context; missing or malformed ones are
 * ignored, never a reason to refuse the record.
 */
class InboxRecordsTraceTest {
  private static final String TRACEPARENT =
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  private static ConsumerRecord<String, String> record(byte[] traceparent, byte[] tracestate) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(OnceHeaders.MESSAGE_ID, utf8(UUID.randomUUID().toString()));
    headers.add(OnceHeaders.TYPE, utf8("t"));
    if (traceparent != null) {
      headers.add(OnceHeaders.TRACEPARENT, traceparent);
    }
    if (tracestate != null) {
      headers.add(OnceHeaders.TRACESTATE, tracestate);
    }
    return new ConsumerRecord<>(
        "topic",
        0,
        0L,
        0L,
        TimestampType.CREATE_TIME,
        0,
        0,
        "key",
        "{}",
        headers,
        Optional.empty());
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void validHeadersBecomeTheMessagesTraceContext() {
    InboxMessage message =
        InboxRecords.messageOf(record(utf8(TRACEPARENT), utf8("congo=t61rcWkgMzE")), "t");

    assertThat(message.trace()).isEqualTo(new TraceContext(TRACEPARENT, "congo=t61rcWkgMzE"));
  }

  @Test
  void noHeaderIsNoContext() {
    assertThat(InboxRecords.messageOf(record(null, utf8("k=v")), "t").trace()).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "garbage",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"
      })
  void aMalformedTraceparentIsIgnoredAndTheRecordStillReadable(String traceparent) {
    InboxMessage message = InboxRecords.messageOf(record(utf8(traceparent), utf8("k=v")), "t");

    assertThat(message.trace()).isNull();
    assertThat(message.payloadJson()).isEqualTo("{}");
  }

  @Test
  void aTracestateThatIsNotUtf8OrHasControlCharactersIsDropped() {
    InboxMessage message =
        InboxRecords.messageOf(
            record(utf8(TRACEPARENT), new byte[] {'k', '=', (byte) 0xff, '\n'}), "t");

    assertThat(message.trace()).isEqualTo(new TraceContext(TRACEPARENT, null));
  }
}
