package dev.once.outbox;

import java.time.Instant;
import java.util.UUID;

/**
 * The record of a replay from the archive ({@link OutboxAdmin#replay}): what was asked, by whom,
 * when, and what it did.
 *
 * @param id the replay's id, as its requester chose it
 * @param type the message type replayed
 * @param from the window's start, inclusive, by creation time
 * @param to the window's end, exclusive
 * @param aggregateId the one aggregate replayed, or {@code null} for all
 * @param consumer the one consumer whose inbox records were forgotten, or {@code null}
 * @param requestedBy who asked
 * @param requestedAt when, by the database's clock
 * @param rows rows appended to the outbox (a message still in the outbox, from the original or an
 *     earlier replay, is not appended twice)
 * @param forgotten inbox records of {@code consumer} forgotten
 * @param repeated whether this answer is to a request made before with the same id, which did
 *     nothing this time
 */
public record Replay(
    UUID id,
    String type,
    Instant from,
    Instant to,
    String aggregateId,
    String consumer,
    String requestedBy,
    Instant requestedAt,
    long rows,
    long forgotten,
    boolean repeated) {}
