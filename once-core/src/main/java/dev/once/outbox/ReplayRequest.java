package dev.once.outbox;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.UUID;

/**
 * What to replay from the archive ({@link OutboxAdmin#replay}): the delivered rows of one type
 * created in a window, optionally of one aggregate, to every consumer or to one.
 *
 * @param id the replay's own id, chosen by the requester: a request sent again with the same id
 *     finds the first one's record and appends nothing
 * @param type the message type, 1 to {@value OutboxAdmin#MAX_TYPE_LENGTH} characters
 * @param from the window's start, inclusive, by the rows' creation time (microseconds, as stored)
 * @param to the window's end, exclusive; after {@code from}
 * @param aggregateId only this aggregate's rows, or {@code null} for every aggregate; 1 to 255
 *     characters
 * @param consumer only this inbox consumer takes them again: its inbox records of the replayed
 *     messages are forgotten, while every other consumer still skips them by its own; {@code null}
 *     to forget nothing (a consumer that took a message skips it, one added since takes it); 1 to
 *     200 characters
 * @param requestedBy who asked, kept with the replay's record; 1 to {@value
 *     OutboxAdmin#MAX_PAUSED_BY_LENGTH} characters
 */
public record ReplayRequest(
    UUID id,
    String type,
    Instant from,
    Instant to,
    String aggregateId,
    String consumer,
    String requestedBy) {

  /**
   * @throws IllegalArgumentException if a value is missing, blank, too long, or the window is empty
   *     or inverted
   */
  public ReplayRequest {
    if (id == null) {
      throw new IllegalArgumentException("id must be given");
    }
    type = Texts.checked("type", type, OutboxAdmin.MAX_TYPE_LENGTH, false);
    if (from == null || to == null) {
      throw new IllegalArgumentException("from and to must be given");
    }
    from = from.truncatedTo(ChronoUnit.MICROS);
    to = to.truncatedTo(ChronoUnit.MICROS);
    if (!from.isBefore(to)) {
      throw new IllegalArgumentException(
          "the window is empty or inverted: from (" + from + ") must be before to (" + to + ")");
    }
    aggregateId = Texts.checked("aggregateId", aggregateId, 255, true);
    consumer = Texts.checked("consumer", consumer, 200, true);
    requestedBy =
        Texts.checked("requestedBy", requestedBy, OutboxAdmin.MAX_PAUSED_BY_LENGTH, false);
  }

  /** Whether {@code replay} is the record of this request: the same window, type and targets. */
  public boolean sameAs(Replay replay) {
    return type.equals(replay.type())
        && from.equals(replay.from())
        && to.equals(replay.to())
        && Objects.equals(aggregateId, replay.aggregateId())
        && Objects.equals(consumer, replay.consumer());
  }
}
