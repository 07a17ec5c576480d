package dev.once.spring.events;

import java.util.UUID;

/**
 * What a listener may learn about the event besides its payload: the optional second parameter of
 * an {@link OnceListener} method.
 *
 * @param messageId the event's stable id, the same on every delivery (the inbox's dedup key)
 * @param type the event's type, the {@link OnceEvent#name()}
 * @param aggregateId the business object it concerns, the publisher's ordering key
 * @param version the version it was published with, before any upcasting
 */
public record EventMetadata(UUID messageId, String type, String aggregateId, int version) {}
