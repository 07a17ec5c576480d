package dev.once.spring.events;

import dev.once.inbox.InboxMessage;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes {@link OnceEvent} records as outbox payloads and reads them back for a listener, with the
 * application's {@link JsonMapper}.
 *
 * <p>The payload is the record's JSON object. A version above 1 adds the member {@value #VERSION}
 * (an integer; the outbox's jsonb column keeps members in its own order); version 1 adds nothing,
 * and a payload without the member is version 1. Why a member and not an envelope, a header or a
 * type suffix: the payload stays the record's own JSON for every other reader of the outbox or of a
 * Kafka topic (a version 1 payload is byte for byte what a string publisher writes), the type stays
 * the one name topics and consumers know, and the version travels wherever the payload does (the
 * outbox row, a Kafka record, a dead letter, a replay) without a column or a header of its own. The
 * price: {@value #VERSION} is reserved, a record that writes a member of that name is refused, and
 * a strict reader of a version 2 payload (unknown members refused) must know the member.
 *
 * <p>Reading is strict, so that an event is never applied wrongly: the payload must be one JSON
 * object (no trailing content, no duplicate member), a primitive component must be present, and the
 * record's constructor checks apply. Thread-safe.
 */
final class EventCodec {
  /** The reserved top-level member that carries versions above 1. */
  public static final String VERSION = "@version";

  private final JsonMapper json;
  private final EventUpcasters upcasters;
  private final ObjectReader trees;

  EventCodec(JsonMapper json, EventUpcasters upcasters) {
    this.json = Objects.requireNonNull(json, "json");
    this.upcasters = Objects.requireNonNull(upcasters, "upcasters");
    this.trees =
        json.reader()
            .with(
                DeserializationFeature.FAIL_ON_TRAILING_TOKENS,
                DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
  }

  /**
   * The payload of {@code event}.
   *
   * @throws IllegalArgumentException if it is not of {@code type}, does not write a JSON object, or
   *     writes the reserved member {@value #VERSION}
   */
  public String write(EventType type, Object event) {
    if (!type.recordType().isInstance(event)) {
      throw new IllegalArgumentException(
          event.getClass().getName() + " is not a " + type.recordType().getName());
    }
    JsonNode tree = json.valueToTree(event);
    if (!(tree instanceof ObjectNode object)) {
      throw new IllegalArgumentException(
          "The event "
              + type.name()
              + " ("
              + type.recordType().getName()
              + ") must be written as a JSON object");
    }
    if (object.has(VERSION)) {
      throw new IllegalArgumentException(
          "The event "
              + type.name()
              + " ("
              + type.recordType().getName()
              + ") writes the member "
              + VERSION
              + ", which Once reserves for the event's version");
    }
    if (type.version() == 1) {
      return json.writeValueAsString(object);
    }
    ObjectNode versioned = json.createObjectNode();
    versioned.put(VERSION, type.version());
    versioned.setAll(object);
    return json.writeValueAsString(versioned);
  }

  /** An event read for a listener: the record and the version it was published with. */
  record Read(Object event, int publishedVersion) {}

  /**
   * Reads {@code message} into {@code type}'s record for {@code consumer}, upcasting an older
   * version step by step.
   *
   * @throws EventPayloadException if the payload is not a JSON object, its version member is not a
   *     positive integer, an upcaster returns nothing, or the result does not bind to the record
   * @throws EventVersionException if the event is newer than the record, or an upcaster step is
   *     missing
   */
  Read read(EventType type, InboxMessage message, String consumer) {
    JsonNode tree;
    try {
      tree = trees.readTree(message.payloadJson());
    } catch (JacksonException e) {
      throw payload(message, consumer, "is not a JSON document", e);
    }
    if (!(tree instanceof ObjectNode object)) {
      throw payload(message, consumer, "is not a JSON object", null);
    }
    int published = versionOf(object, message, consumer);
    if (published > type.version()) {
      throw new EventVersionException(
          "Event "
              + message.type()
              + " version "
              + published
              + " (message "
              + message.messageId()
              + ") is newer than consumer "
              + consumer
              + " knows: its record "
              + type.recordType().getName()
              + " is version "
              + type.version()
              + ". Deploy the consumer's new version, then requeue the event.");
    }
    object.remove(VERSION);
    ObjectNode current = object;
    for (int version = published; version < type.version(); version++) {
      int from = version;
      EventUpcaster upcaster =
          upcasters
              .from(type.name(), from)
              .orElseThrow(
                  () ->
                      new EventVersionException(
                          "Event "
                              + message.type()
                              + " version "
                              + published
                              + " (message "
                              + message.messageId()
                              + ") cannot be read by consumer "
                              + consumer
                              + " (record "
                              + type.recordType().getName()
                              + ", version "
                              + type.version()
                              + "): no EventUpcaster bean turns version "
                              + from
                              + " into "
                              + (from + 1)));
      ObjectNode next = upcaster.upcast(current);
      if (next == null) {
        throw payload(
            message,
            consumer,
            "was turned into nothing by the upcaster " + upcaster.getClass().getName(),
            null);
      }
      next.remove(VERSION);
      current = next;
    }
    try {
      Object event =
          json.readerFor(type.recordType())
              .with(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
              .readValue(current);
      if (event == null) {
        throw payload(message, consumer, "is null", null);
      }
      return new Read(event, published);
    } catch (JacksonException e) {
      throw payload(
          message, consumer, "does not bind to the record " + type.recordType().getName(), e);
    }
  }

  private static int versionOf(ObjectNode payload, InboxMessage message, String consumer) {
    JsonNode version = payload.get(VERSION);
    if (version == null) {
      return 1;
    }
    if (!version.isIntegralNumber() || !version.canConvertToInt() || version.intValue() < 1) {
      throw payload(
          message, consumer, "has a " + VERSION + " member that is not a positive integer", null);
    }
    return version.intValue();
  }

  private static EventPayloadException payload(
      InboxMessage message, String consumer, String problem, Throwable cause) {
    return new EventPayloadException(
        "The payload of event "
            + message.type()
            + " (message "
            + message.messageId()
            + ") for consumer "
            + consumer
            + " "
            + problem
            + "; nothing was applied",
        cause);
  }
}
