package dev.once.spring.actuate;

import dev.once.outbox.DeadMessage;
import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxStats;
import dev.once.outbox.PausedType;
import dev.once.outbox.Replay;
import dev.once.outbox.ReplayRequest;
import dev.once.outbox.TypeCounts;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.util.MimeType;

/**
 * The Actuator endpoint {@code once}: the outbox for operators, without a REST API of the
 * application's own. Like every Actuator endpoint it is reachable over HTTP only when the
 * application exposes it ({@code management.endpoints.web.exposure.include=once}), and its write
 * operation is as protected as the application protects Actuator (Spring Security, or {@code
 * management.endpoint.once.access=read-only} to allow reads only).
 *
 * <ul>
 *   <li>{@code GET /actuator/once}: the backlog, the age of the oldest due row, the dead rows, per
 *       message type the rows pending, held behind a dead row, and dead, and the paused types with
 *       who paused each, when and why;
 *   <li>{@code GET /actuator/once/dead?after=&limit=}: dead rows oldest first, with keyset paging
 *       ({@code next} of a page is {@code after} of the next), their error and attempts, never
 *       their payloads;
 *   <li>{@code GET /actuator/once/dead/{id}}: one dead row with its payload;
 *   <li>{@code POST /actuator/once/dead/{id}/requeue}: the row back to pending, due now, with a
 *       fresh retry budget. A row appended longer ago than the inbox retention is refused (409)
 *       unless forced ({@code ?force=true}, or {@code {"force": true}} in the body): its consumers'
 *       inbox records may have been purged, and its delivery may then apply its effect a second
 *       time. Naturally idempotent: a second requeue finds no dead row (404). Logged at INFO with
 *       the caller's principal.
 *   <li>{@code POST /actuator/once/dead/requeue?ids=1,2,3}: many rows at once, each as above; the
 *       answer has each id's outcome.
 *   <li>{@code POST /actuator/once/types/{type}/pause} ({@code reason} as a query parameter or in
 *       the body) and {@code POST /actuator/once/types/{type}/resume}: no relay on any instance
 *       attempts the type's rows until it is resumed ({@link OutboxAdmin#pause}). A type that no
 *       relay of this application handles is refused (404) when the application has a relay; a
 *       second pause keeps the first (200, {@code "paused": false}), resuming a type that is not
 *       paused is 404. Logged at WARN and INFO with the caller's principal, who is kept as the
 *       pause's author.
 *   <li>{@code POST /actuator/once/replay} with {@code id} (a UUID the caller chooses), {@code
 *       type}, {@code from} and {@code to} (ISO-8601 instants, the window of creation times), and
 *       optionally {@code aggregateId}, {@code consumer} and {@code force}: replays the type's
 *       archived deliveries of the window ({@link OutboxAdmin#replay}). A window that starts longer
 *       ago than the inbox retention is refused (409) unless forced: the consumers' inbox records
 *       that make a replay harmless may have been purged. The same id again answers the first
 *       replay's record ({@code "repeated": true}) and appends nothing; an id used for another
 *       replay is 409. {@code GET /actuator/once/replays?limit=} lists the latest.
 * </ul>
 *
 * Refusals are RFC 9457 problems ({@code application/problem+json}: type, title, status, detail).
 * Malformed ids and paging parameters are refused with 400, a row that is not dead with 404;
 * nothing changes on any refusal. Each operation is one short statement (the counts per type read
 * the rows not delivered: for an operator, not for a monitoring loop).
 */
@Endpoint(id = "once")
public class OnceEndpoint {
  private static final Logger log = LoggerFactory.getLogger(OnceEndpoint.class);
  private static final Pattern NUMBER = Pattern.compile("[0-9]{1,18}");
  private static final String TYPES = "types";
  private static final String PROBLEM_TYPES = "https://once.dev/problems/";
  private static final MimeType PROBLEM_JSON = MimeType.valueOf("application/problem+json");
  private static final java.util.Map<String, String> TITLES =
      java.util.Map.of(
          "not-found", "Not found",
          "invalid-parameter", "Invalid parameter",
          "requeue-past-retention", "Requeue past the inbox retention",
          "replay-past-retention", "Replay past the inbox retention",
          "replay-conflict", "Replay conflict");
  private static final String REPLAYS = "replays";
  private static final String DEAD = "dead";
  private static final int DEFAULT_LIMIT = 50;
  private static final int MAX_LIMIT = 1000;
  private static final int MAX_MANY = 1000;

  private final OutboxAdmin outbox;
  private final Duration inboxRetention;
  private final Clock clock;
  private final Supplier<Set<String>> handledTypes;
  private final Supplier<Set<String>> consumers;

  /**
   * @param inboxRetention how long consumers remember a message: a row older than that is requeued
   *     only with {@code force}
   */
  public OnceEndpoint(OutboxAdmin outbox, Duration inboxRetention, Clock clock) {
    this(outbox, inboxRetention, clock, Set::of, Set::of);
  }

  /**
   * @param inboxRetention how long consumers remember a message: a row older than that is requeued
   *     only with {@code force}
   * @param handledTypes the types the application's relays handle, which may be paused and
   *     replayed; empty when it has no relay (an instance that only appends): any type then
   * @param consumers the names of the application's inbox consumers, which a replay may target;
   *     empty when it has none: any name then
   */
  public OnceEndpoint(
      OutboxAdmin outbox,
      Duration inboxRetention,
      Clock clock,
      Supplier<Set<String>> handledTypes,
      Supplier<Set<String>> consumers) {
    this.outbox = Objects.requireNonNull(outbox, "outbox");
    this.inboxRetention = Objects.requireNonNull(inboxRetention, "inboxRetention");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.handledTypes = Objects.requireNonNull(handledTypes, "handledTypes");
    this.consumers = Objects.requireNonNull(consumers, "consumers");
  }

  /** The outbox at a glance. */
  @ReadOperation
  public Report report() {
    OutboxStats stats = outbox.stats();
    return new Report(
        new OutboxReport(
            stats.backlog(),
            stats.oldestDueAge().toMillis() / 1000.0,
            stats.dead(),
            outbox.countsByType(),
            outbox.paused()));
  }

  /** A page of dead rows: {@code GET /actuator/once/dead?after=&limit=}. */
  @ReadOperation
  public WebEndpointResponse<Object> rows(
      @Selector String rows, @Nullable String after, @Nullable String limit) {
    if (REPLAYS.equals(rows)) {
      return replays(limit);
    }
    if (!DEAD.equals(rows)) {
      return notFound("No such part of the once endpoint: 'dead' or 'replays'.");
    }
    if (after != null && !NUMBER.matcher(after).matches()) {
      return badRequest("Parameter 'after' must be the 'next' of a page: 1 to 18 digits.");
    }
    long afterId = after == null ? 0 : Long.parseLong(after);
    if (limit != null
        && (!NUMBER.matcher(limit).matches()
            || Long.parseLong(limit) < 1
            || Long.parseLong(limit) > MAX_LIMIT)) {
      return badRequest("Parameter 'limit' must be 1 to " + MAX_LIMIT + ".");
    }
    int size = limit == null ? DEFAULT_LIMIT : Integer.parseInt(limit);
    List<DeadMessage> page = outbox.dead(afterId, size);
    String next = page.size() == size ? Long.toString(page.get(page.size() - 1).id()) : null;
    return new WebEndpointResponse<>(
        new DeadPage(page.stream().map(DeadView::of).toList(), next), 200);
  }

  /** One dead row with its payload: {@code GET /actuator/once/dead/{id}}. */
  @ReadOperation
  public WebEndpointResponse<Object> row(@Selector String rows, @Selector String id) {
    if (!DEAD.equals(rows)) {
      return notFound("No such part of the once endpoint: only 'dead'.");
    }
    if (!NUMBER.matcher(id).matches()) {
      return badRequest("A row id is 1 to 18 digits.");
    }
    long rowId = Long.parseLong(id);
    Optional<DeadMessage> row = outbox.deadMessage(rowId);
    Optional<String> payload = row.isEmpty() ? Optional.empty() : outbox.deadPayload(rowId);
    if (row.isEmpty() || payload.isEmpty()) {
      return notFound("No dead outbox row has this id.");
    }
    return new WebEndpointResponse<>(new DeadRow(DeadView.of(row.get()), payload.get()), 200);
  }

  /**
   * Moves a dead row: requeues it ({@code POST /actuator/once/dead/{id}/requeue}, {@code force} as
   * a query parameter or in the body) or discards it ({@code POST
   * /actuator/once/dead/{id}/discard}).
   */
  @WriteOperation
  public WebEndpointResponse<Object> move(
      @Selector String rows,
      @Selector String id,
      @Selector String action,
      @Nullable Boolean force,
      @Nullable String reason,
      @Nullable Principal principal) {
    if (TYPES.equals(rows) && ("pause".equals(action) || "resume".equals(action))) {
      return "pause".equals(action) ? pause(id, reason, principal) : resume(id, principal);
    }
    if (!DEAD.equals(rows) || !("requeue".equals(action) || "discard".equals(action))) {
      return notFound(
          "No such operation of the once endpoint: POST dead/{id}/requeue, dead/{id}/discard,"
              + " types/{type}/pause or types/{type}/resume.");
    }
    if (!NUMBER.matcher(id).matches()) {
      return badRequest("A row id is 1 to 18 digits.");
    }
    long rowId = Long.parseLong(id);
    Optional<DeadMessage> row = outbox.deadMessage(rowId);
    if (row.isEmpty()) {
      return notFound("No dead outbox row has this id.");
    }
    if ("discard".equals(action)) {
      return discard(row.get(), principal);
    }
    Instant oldestSafe = clock.instant().minus(inboxRetention);
    boolean pastRetention = row.get().createdAt().isBefore(oldestSafe);
    boolean forced = Boolean.TRUE.equals(force);
    if (pastRetention && !forced) {
      return conflict(
          "requeue-past-retention",
          "This row was appended at "
              + row.get().createdAt()
              + ", longer ago than the inbox retention ("
              + inboxRetention
              + "): its consumers' inbox records may have been purged, so its delivery may"
              + " apply its effect a second time. Check the effect by hand, then requeue with"
              + " force=true.");
    }
    if (!outbox.requeue(rowId)) {
      return notFound("No dead outbox row has this id.");
    }
    log.info(
        "Outbox row {} ({} of aggregate {}) requeued through the once endpoint by {}{}",
        rowId,
        row.get().type(),
        row.get().aggregateId(),
        principal == null ? "a caller with no principal" : principal.getName(),
        pastRetention ? ", forced past the inbox retention of " + inboxRetention : "");
    return new WebEndpointResponse<>(new Moved(id, "pending"), 200);
  }

  /**
   * Requeues many dead rows: {@code POST /actuator/once/dead/requeue} with {@code ids}, 1 to
   * {@value #MAX_MANY} row ids separated by commas (and {@code force}). Every id is checked before
   * any row is touched; then each row is requeued as one {@code dead/{id}/requeue} would be, and
   * the answer says, per id, {@code pending} or why not ({@code not-found}, {@code
   * requeue-past-retention}).
   */
  @WriteOperation
  public WebEndpointResponse<Object> moveMany(
      @Selector String rows,
      @Selector String action,
      @Nullable String ids,
      @Nullable Boolean force,
      @Nullable Principal principal) {
    if (!DEAD.equals(rows) || !"requeue".equals(action)) {
      return notFound("No such operation of the once endpoint: POST dead/requeue with 'ids'.");
    }
    String[] parts = ids == null || ids.isBlank() ? new String[0] : ids.split(",", -1);
    Set<String> distinct = new java.util.LinkedHashSet<>();
    for (String part : parts) {
      String id = part.strip();
      if (!NUMBER.matcher(id).matches()) {
        return badRequest("Parameter 'ids' is row ids of 1 to 18 digits, separated by commas.");
      }
      distinct.add(id);
    }
    if (distinct.isEmpty() || distinct.size() > MAX_MANY) {
      return badRequest("Parameter 'ids' names 1 to " + MAX_MANY + " rows.");
    }
    List<Outcome> outcomes = new java.util.ArrayList<>();
    for (String id : distinct) {
      WebEndpointResponse<Object> one = move(DEAD, id, "requeue", force, null, principal);
      outcomes.add(
          new Outcome(id, one.getStatus() == 200 ? "pending" : ((Refusal) one.getBody()).error()));
    }
    long requeued = outcomes.stream().filter(o -> o.outcome().equals("pending")).count();
    return new WebEndpointResponse<>(new MovedMany(requeued, outcomes), 200);
  }

  /** Discards a dead row: never delivered, the rows held behind it released in order. */
  private WebEndpointResponse<Object> discard(DeadMessage row, @Nullable Principal principal) {
    if (!outbox.discard(row.id())) {
      return notFound("No dead outbox row has this id.");
    }
    log.info(
        "Outbox row {} ({} of aggregate {}) discarded through the once endpoint by {}: it will"
            + " never be delivered, and the later rows of its aggregate go on",
        row.id(),
        row.type(),
        row.aggregateId(),
        principal == null ? "a caller with no principal" : principal.getName());
    return new WebEndpointResponse<>(new Moved(Long.toString(row.id()), "discarded"), 200);
  }

  /** The latest replays, newest first: {@code GET /actuator/once/replays?limit=}. */
  private WebEndpointResponse<Object> replays(@Nullable String limit) {
    if (limit != null
        && (!NUMBER.matcher(limit).matches()
            || Long.parseLong(limit) < 1
            || Long.parseLong(limit) > MAX_LIMIT)) {
      return badRequest("Parameter 'limit' must be 1 to " + MAX_LIMIT + ".");
    }
    return new WebEndpointResponse<>(
        new Replays(outbox.replays(limit == null ? DEFAULT_LIMIT : Integer.parseInt(limit))), 200);
  }

  /**
   * Replays archived deliveries: {@code POST /actuator/once/replay}. Every argument is checked
   * here, so that each refusal says which one is wrong; nothing is written on any refusal.
   */
  @WriteOperation
  public WebEndpointResponse<Object> replay(
      @Selector String operation,
      @Nullable String id,
      @Nullable String type,
      @Nullable String from,
      @Nullable String to,
      @Nullable String aggregateId,
      @Nullable String consumer,
      @Nullable Boolean force,
      @Nullable Principal principal) {
    if (!"replay".equals(operation)) {
      return notFound("No such operation of the once endpoint: POST replay.");
    }
    UUID replayId;
    Instant start;
    Instant end;
    try {
      replayId = UUID.fromString(required("id", id));
      start = Instant.parse(required("from", from));
      end = Instant.parse(required("to", to));
    } catch (IllegalArgumentException | DateTimeParseException e) {
      return badRequest(
          "A replay needs 'id' (a UUID of your choosing, the same when you send it again), 'type',"
              + " and 'from' and 'to' as ISO-8601 instants such as 2026-12-05T10:00:00Z.");
    }
    ReplayRequest request;
    try {
      request =
          new ReplayRequest(replayId, type, start, end, aggregateId, consumer, author(principal));
    } catch (IllegalArgumentException e) {
      return badRequest("Replay refused: " + e.getMessage() + ".");
    }
    Set<String> handled = handledTypes.get();
    if (!handled.isEmpty() && !handled.contains(request.type())) {
      return notFound(
          "No relay of this application handles the message type '" + request.type() + "'.");
    }
    Set<String> known = consumers.get();
    if (request.consumer() != null && !known.isEmpty() && !known.contains(request.consumer())) {
      return notFound(
          "No inbox consumer of this application is named '"
              + request.consumer()
              + "': it has "
              + new TreeSet<>(known)
              + ".");
    }
    Instant oldestSafe = clock.instant().minus(inboxRetention);
    if (request.from().isBefore(oldestSafe) && !Boolean.TRUE.equals(force)) {
      return conflict(
          "replay-past-retention",
          "The window starts longer ago than the inbox retention ("
              + inboxRetention
              + "): consumers may have purged the inbox records that make them skip what they"
              + " took, and would apply those events a second time. Narrow the window, or"
              + " check the effects by hand and replay with force=true.");
    }
    Replay replay;
    try {
      replay = outbox.replay(request);
    } catch (IllegalArgumentException e) {
      return badRequest("Replay refused: " + e.getMessage() + ".");
    } catch (IllegalStateException e) {
      return conflict("replay-conflict", e.getMessage() + ".");
    }
    if (!replay.repeated()) {
      log.info(
          "Replay {} of {} created {} to {}{}{} requested through the once endpoint by {}: {}"
              + " rows appended, {} inbox records forgotten",
          replay.id(),
          replay.type(),
          replay.from(),
          replay.to(),
          replay.aggregateId() == null ? "" : ", aggregate " + replay.aggregateId(),
          replay.consumer() == null ? "" : ", for consumer " + replay.consumer(),
          replay.requestedBy(),
          replay.rows(),
          replay.forgotten());
    }
    return new WebEndpointResponse<>(replay, 200);
  }

  private static String required(String name, @Nullable String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " is missing");
    }
    return value.strip();
  }

  /** Pauses a type on every instance: {@code POST /actuator/once/types/{type}/pause}. */
  private WebEndpointResponse<Object> pause(
      String type, @Nullable String reason, @Nullable Principal principal) {
    if (type.isBlank() || type.length() > OutboxAdmin.MAX_TYPE_LENGTH) {
      return badRequest("A message type is 1 to " + OutboxAdmin.MAX_TYPE_LENGTH + " characters.");
    }
    if (reason != null && reason.length() > OutboxAdmin.MAX_REASON_LENGTH) {
      return badRequest(
          "Parameter 'reason' must be at most " + OutboxAdmin.MAX_REASON_LENGTH + " characters.");
    }
    Set<String> handled = handledTypes.get();
    if (!handled.isEmpty() && !handled.contains(type)) {
      return notFound(
          "No relay of this application handles the message type '"
              + type
              + "': it handles "
              + new TreeSet<>(handled)
              + ".");
    }
    String by = author(principal);
    boolean paused = outbox.pause(type, by, reason);
    if (paused) {
      log.warn(
          "Outbox message type {} paused through the once endpoint by {}: no relay attempts its"
              + " rows until it is resumed",
          type,
          by);
    }
    return new WebEndpointResponse<>(new Paused(type, paused, outbox.paused()), 200);
  }

  /** Resumes a type on every instance: {@code POST /actuator/once/types/{type}/resume}. */
  private WebEndpointResponse<Object> resume(String type, @Nullable Principal principal) {
    if (type.isBlank() || type.length() > OutboxAdmin.MAX_TYPE_LENGTH) {
      return badRequest("A message type is 1 to " + OutboxAdmin.MAX_TYPE_LENGTH + " characters.");
    }
    if (!outbox.resume(type)) {
      return notFound("The message type '" + type + "' is not paused.");
    }
    log.info(
        "Outbox message type {} resumed through the once endpoint by {}", type, author(principal));
    return new WebEndpointResponse<>(new Resumed(type, outbox.paused()), 200);
  }

  private static String author(@Nullable Principal principal) {
    String name = principal == null ? null : principal.getName();
    if (name == null || name.isBlank()) {
      return "once endpoint";
    }
    return name.length() > OutboxAdmin.MAX_PAUSED_BY_LENGTH
        ? name.substring(0, OutboxAdmin.MAX_PAUSED_BY_LENGTH)
        : name;
  }

  private static WebEndpointResponse<Object> conflict(String error, String detail) {
    return refuse(409, error, detail);
  }

  /** An RFC 9457 problem, {@code application/problem+json}, as the shop's own errors are. */
  private static WebEndpointResponse<Object> refuse(int status, String error, String detail) {
    return new WebEndpointResponse<>(
        new Refusal(PROBLEM_TYPES + error, TITLES.getOrDefault(error, error), status, detail),
        status,
        PROBLEM_JSON);
  }

  private static WebEndpointResponse<Object> notFound(String detail) {
    return refuse(404, "not-found", detail);
  }

  private static WebEndpointResponse<Object> badRequest(String detail) {
    return refuse(400, "invalid-parameter", detail);
  }

  /** {@code GET /actuator/once}. */
  public record Report(OutboxReport outbox) {}

  /**
   * The outbox: rows pending (held ones included), seconds the oldest due row has waited, dead
   * rows, and per type.
   */
  public record OutboxReport(
      long backlog,
      double oldestDueAgeSeconds,
      long dead,
      List<TypeCounts> types,
      List<PausedType> paused) {}

  /**
   * A pause: whether this call paused the type ({@code false}: it was paused already, and the first
   * pause stays), and every paused type now.
   */
  public record Paused(String type, boolean paused, List<PausedType> pausedTypes) {}

  /** A resume, and the types still paused. */
  public record Resumed(String type, List<PausedType> pausedTypes) {}

  /** A page of dead rows; {@code next} is the {@code after} of the next page, null on the last. */
  public record DeadPage(List<DeadView> rows, @Nullable String next) {}

  /** A dead row without its payload. Ids are strings: JavaScript readers lose digits of longs. */
  public record DeadView(
      String id,
      String messageId,
      String type,
      String aggregateId,
      int attempts,
      String lastError,
      Instant createdAt) {
    static DeadView of(DeadMessage row) {
      return new DeadView(
          Long.toString(row.id()),
          row.messageId().toString(),
          row.type(),
          row.aggregateId(),
          row.attempts(),
          row.lastError(),
          row.createdAt());
    }
  }

  /** One dead row and its payload, as stored (JSON text). */
  public record DeadRow(DeadView row, String payload) {}

  /** A row an operator moved: {@code pending} again (requeued) or {@code discarded}. */
  public record Moved(String id, String state) {}

  /** Rows requeued by one call, and per id its outcome. */
  public record MovedMany(long requeued, List<Outcome> rows) {}

  /** One id of a requeue of many: {@code pending}, or the error that refused it. */
  public record Outcome(String id, String outcome) {}

  /** The latest replays, newest first. */
  public record Replays(List<Replay> replays) {}

  /**
   * Why an operation was refused, as an RFC 9457 problem ({@code application/problem+json});
   * nothing changed.
   */
  public record Refusal(String type, String title, int status, String detail) {
    /** The last segment of {@code type}: {@code not-found}, {@code invalid-parameter}, … */
    public String error() {
      return type.substring(type.lastIndexOf('/') + 1);
    }
  }
}
