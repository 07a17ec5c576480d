package dev.once.spring.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.inbox.InboxMessage;
import dev.once.spring.codec.PriceSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The codec on its own: an event three versions old is upcast through every step in order, and a
 * primitive component that the payload sets to {@code null} is refused rather than read as 0, even
 * when the application's mapper would allow it.
 */
@Timeout(30)
class EventCodecTest {
  private static final String EVENT = PriceSet.NAME;

  private final EventCodec codec =
      new EventCodec(
          // An application mapper that lets null into primitives: the codec is strict anyway.
          JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build(),
          EventUpcasters.of(List.of(step(1, "cents", 0), step(2, "currency", "EUR"))));

  @Test
  void aVersionOnePayloadGoesThroughEveryStepInOrder() {
    EventCodec.Read read =
        codec.read(EventType.of(PriceSet.class), message("{\"sku\":\"a\"}"), "c");

    assertThat(read.event()).isEqualTo(new PriceSet("a", 0, "EUR"));
    assertThat(read.publishedVersion()).isEqualTo(1);
  }

  @Test
  void aVersionTwoPayloadTakesOnlyTheLastStep() {
    EventCodec.Read read =
        codec.read(
            EventType.of(PriceSet.class),
            message("{\"@version\":2,\"sku\":\"a\",\"cents\":250}"),
            "c");

    assertThat(read.event()).isEqualTo(new PriceSet("a", 250, "EUR"));
    assertThat(read.publishedVersion()).isEqualTo(2);
  }

  @Test
  void aNullForAPrimitiveIsRefusedNotReadAsZero() {
    InboxMessage message =
        message("{\"@version\":3,\"sku\":\"a\",\"cents\":null,\"currency\":\"EUR\"}");

    assertThatThrownBy(() -> codec.read(EventType.of(PriceSet.class), message, "c"))
        .isInstanceOf(EventPayloadException.class)
        .hasMessageContaining("does not bind to the record")
        .hasMessageContaining(message.messageId().toString());
  }

  /** Turns {@code from} into {@code from + 1} by adding {@code member}, once. */
  private static EventUpcaster step(int from, String member, Object value) {
    return new EventUpcaster() {
      @Override
      public String event() {
        return EVENT;
      }

      @Override
      public int fromVersion() {
        return from;
      }

      @Override
      public ObjectNode upcast(ObjectNode payload) {
        if (payload.has(member)) {
          throw new IllegalStateException(member + " is there already: a step ran twice");
        }
        ObjectNode next = payload.deepCopy();
        if (value instanceof Integer number) {
          next.put(member, number);
        } else {
          next.put(member, (String) value);
        }
        return next;
      }
    };
  }

  private static InboxMessage message(String payload) {
    return new InboxMessage(UUID.randomUUID(), EVENT, "a", payload);
  }
}
