package dev.once.shop.outbox;

import dev.once.outbox.DeadMessage;
import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxStats;
import dev.once.shop.openapi.OpenApiConfiguration;
import dev.once.shop.openapi.Problems;
import dev.once.shop.problems.InvalidRequestException;
import dev.once.shop.problems.NotFoundException;
import dev.once.shop.problems.ShopProblem;
import dev.once.spring.OnceProperties;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The outbox for operators (admin token): its backlog, the dead rows, a requeue of one dead row
 * with a fresh retry budget, and a discard of one that must never be delivered (docs/outbox.md,
 * runbook). A requeue is naturally idempotent: a second one finds no dead row and answers 404, and
 * the row is delivered once either way.
 */
@RestController
@RequestMapping(path = "/admin/v1/outbox", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "outbox", description = "The outbox, for operators (admin token)")
@SecurityRequirement(name = OpenApiConfiguration.ADMIN_SCHEME)
class OutboxAdminController {
  private static final Logger log = LoggerFactory.getLogger(OutboxAdminController.class);
  private static final Pattern NUMBER = Pattern.compile("[0-9]{1,18}");
  private static final int DEFAULT_LIMIT = 50;
  private static final int MAX_LIMIT = 1000;

  private final OutboxAdmin outbox;
  private final Duration inboxRetention;
  private final Clock clock;

  OutboxAdminController(OutboxAdmin outbox, OnceProperties once, Clock clock) {
    this.outbox = outbox;
    this.inboxRetention = once.inbox().retention();
    this.clock = clock;
  }

  @GetMapping
  @Operation(
      operationId = "getOutboxStats",
      summary = "Backlog, age of the oldest due row and number of dead rows",
      description =
          "A backlog that grows, or an oldest due row that ages, means the relay falls behind;"
              + " dead rows need an operator (docs/outbox.md, runbook).")
  StatsView stats() {
    OutboxStats stats = outbox.stats();
    return new StatsView(stats.backlog(), stats.oldestDueAge().toMillis() / 1000.0, stats.dead());
  }

  @GetMapping("/dead")
  @Operation(
      operationId = "listDeadOutboxMessages",
      summary = "Page through dead outbox rows, oldest first",
      description =
          "Rows whose delivery failed too often; later rows of the same aggregate wait behind"
              + " them. Pass the page's `next` as `after` for the next page.")
  @Problems(ShopProblem.INVALID_PARAMETER)
  DeadPage dead(
      @Parameter(
              description = "Page size, 1 to 1000 (default 50)",
              schema = @Schema(type = "integer", minimum = "1", maximum = "1000", example = "50"))
          @RequestParam(required = false)
          String limit,
      @Parameter(
              description = "The `next` value of the previous page",
              schema = @Schema(type = "string", pattern = "^[0-9]{1,18}$", example = "1042"))
          @RequestParam(required = false)
          String after) {
    int size = limit == null ? DEFAULT_LIMIT : (int) number("limit", limit, 1, MAX_LIMIT);
    long afterId = after == null ? 0 : number("after", after, 0, Long.MAX_VALUE);
    List<DeadMessage> rows = outbox.dead(afterId, size);
    String next = rows.size() == size ? Long.toString(rows.get(rows.size() - 1).id()) : null;
    return new DeadPage(rows.stream().map(DeadView::of).toList(), next);
  }

  @PostMapping("/dead/{id}/requeue")
  @Operation(
      operationId = "requeueDeadOutboxMessage",
      summary = "Move a dead row back to pending, due now, with a fresh retry budget",
      description =
          "Naturally idempotent: a second requeue finds no dead row and answers 404, and the row"
              + " is delivered once either way. A row appended longer ago than the inbox retention"
              + " is refused with 409 `requeue-past-retention` unless `force=true`: its consumers'"
              + " inbox records, or the provider's idempotency key, may have expired, and its"
              + " delivery may then apply its effect a second time (docs/outbox.md, runbook).")
  @Problems({
    ShopProblem.OUTBOX_MESSAGE_NOT_FOUND,
    ShopProblem.REQUEUE_PAST_RETENTION,
    ShopProblem.INVALID_PARAMETER
  })
  RequeuedView requeue(
      @PathVariable String id,
      @Parameter(
              description =
                  "`true` to requeue a row older than the inbox retention, after checking by hand"
                      + " that its effect was not applied",
              schema = @Schema(type = "boolean"))
          @RequestParam(required = false)
          String force,
      HttpServletRequest request) {
    boolean forced = flag("force", force);
    long rowId = NUMBER.matcher(id).matches() ? Long.parseLong(id) : -1;
    DeadMessage row = outbox.deadMessage(rowId).orElse(null);
    if (row == null) {
      throw notDead();
    }
    Instant oldestSafe = clock.instant().minus(inboxRetention);
    boolean pastRetention = row.createdAt().isBefore(oldestSafe);
    if (pastRetention && !forced) {
      throw new RequeuePastRetentionException(
          "This row was appended at "
              + row.createdAt()
              + ", longer ago than the inbox retention ("
              + inboxRetention
              + "): its consumers' inbox records, or the provider's idempotency key, may have"
              + " expired, so its delivery may apply its effect a second time. Check the effect"
              + " by hand, then requeue with force=true.");
    }
    if (!outbox.requeue(rowId)) {
      throw notDead();
    }
    log.info(
        "Outbox row {} ({} of aggregate {}) requeued by an operator (admin token) from {}{}",
        rowId,
        row.type(),
        row.aggregateId(),
        request.getRemoteAddr(),
        pastRetention ? ", forced past the inbox retention of " + inboxRetention : "");
    return new RequeuedView(
        Long.toString(rowId),
        "pending",
        "The row is delivered again. If its consumers' inbox records (kept "
            + inboxRetention
            + ") or the provider's idempotency key expired since its first attempt, its effect is"
            + " applied again.");
  }

  @PostMapping("/dead/{id}/discard")
  @Operation(
      operationId = "discardDeadOutboxMessage",
      summary = "End a dead row undelivered and let the rows held behind it go on",
      description =
          "For a message that must never be delivered: its effect is obsolete, or was applied by"
              + " hand. The row becomes `discarded` (kept with its payload and error, purged like a"
              + " delivered row); the later rows of its aggregate, held behind it, are released"
              + " and delivered in order. Final: a discarded row cannot be requeued. Naturally"
              + " idempotent: a second discard finds no dead row and answers 404.")
  @Problems({ShopProblem.OUTBOX_MESSAGE_NOT_FOUND})
  DiscardedView discard(@PathVariable String id, HttpServletRequest request) {
    long rowId = NUMBER.matcher(id).matches() ? Long.parseLong(id) : -1;
    DeadMessage row = outbox.deadMessage(rowId).orElse(null);
    if (row == null || !outbox.discard(rowId)) {
      throw notDead();
    }
    log.info(
        "Outbox row {} ({} of aggregate {}) discarded by an operator (admin token) from {}",
        rowId,
        row.type(),
        row.aggregateId(),
        request.getRemoteAddr());
    return new DiscardedView(Long.toString(rowId), "discarded");
  }

  private static NotFoundException notDead() {
    return new NotFoundException(
        ShopProblem.OUTBOX_MESSAGE_NOT_FOUND, "No dead outbox row has this id.");
  }

  private static boolean flag(String name, String value) {
    if (value == null || value.equals("false")) {
      return false;
    }
    if (value.equals("true")) {
      return true;
    }
    throw new InvalidRequestException(
        ShopProblem.INVALID_PARAMETER, name, "Parameter '" + name + "' must be true or false.");
  }

  private static long number(String name, String value, long min, long max) {
    long parsed = NUMBER.matcher(value).matches() ? Long.parseLong(value) : -1;
    if (parsed < min || parsed > max) {
      throw new InvalidRequestException(
          ShopProblem.INVALID_PARAMETER,
          name,
          "Parameter '"
              + name
              + "' must be a whole number from "
              + min
              + (max == Long.MAX_VALUE ? " up." : " to " + max + "."));
    }
    return parsed;
  }

  /** The outbox at a glance. */
  @Schema(name = "OutboxStats")
  record StatsView(
      @Schema(example = "12", description = "Rows waiting for delivery") long backlog,
      @Schema(example = "0.8", description = "Age of the oldest due row, 0 when none")
          double oldestDueAgeSeconds,
      @Schema(example = "0", description = "Rows that need an operator") long dead) {}

  /** A dead row; ids are strings, as everywhere in the API. */
  @Schema(name = "DeadMessage")
  record DeadView(
      @Schema(example = "1042") String id,
      @Schema(example = "0b9f4c1e-3f55-4e1c-9a57-2a4cf0d2b6a1") String messageId,
      @Schema(example = "provider.charge") String type,
      @Schema(example = "pay_7Hn2kQe4Wm9sLx3Bv6TgZa") String aggregateId,
      @Schema(example = "25") int attempts,
      @Schema(example = "The provider answered 500.", nullable = true) String lastError,
      @Schema(example = "2026-12-01T13:05:44.120Z", format = "date-time") String createdAt) {
    static DeadView of(DeadMessage row) {
      return new DeadView(
          Long.toString(row.id()),
          row.messageId().toString(),
          row.type(),
          row.aggregateId(),
          row.attempts(),
          row.lastError(),
          row.createdAt().toString());
    }
  }

  /** A page of dead rows; {@code next} is null on the last page. */
  @Schema(name = "DeadMessagePage")
  record DeadPage(
      List<DeadView> items,
      @Schema(nullable = true, description = "Pass as `after` for the next page") String next) {}

  /** The requeued row. */
  @Schema(name = "RequeuedMessage")
  record RequeuedView(
      @Schema(example = "1042") String id,
      @Schema(example = "pending", allowableValues = "pending") String state,
      @Schema(
              example =
                  "The row is delivered again. If its consumers' inbox records (kept PT168H) or"
                      + " the provider's idempotency key expired since its first attempt, its"
                      + " effect is applied again.",
              description = "What a second delivery may do")
          String caution) {}

  /** The discarded row. */
  @Schema(name = "DiscardedMessage")
  record DiscardedView(
      @Schema(example = "1042") String id,
      @Schema(example = "discarded", allowableValues = "discarded") String state) {}
}
