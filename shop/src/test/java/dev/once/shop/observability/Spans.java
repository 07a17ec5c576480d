package dev.once.shop.observability;

import static dev.once.shop.support.OrderFixture.lines;
import static org.awaitility.Awaitility.await;

import dev.once.shop.support.OrderFixture;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** What the trace tests look for among the spans {@link SpanCapture} kept. */
final class Spans {
  /** The relay's span of one delivery attempt (once-spring-boot-starter). */
  static final String DELIVER = "once.outbox.deliver";

  /** An inbox consumer's span of one message (once-spring-boot-starter). */
  static final String CONSUME = "once.inbox.consume";

  /** How long a payment may take from its request to its last consumer. */
  static final Duration SETTLED = Duration.ofSeconds(60);

  /** The orders consumer's span of a {@code payment.succeeded}. */
  static final Predicate<SpanData> ORDER_PAID =
      named(CONSUME)
          .and(tagged("once.consumer", "orders"))
          .and(tagged("once.message.type", "payment.succeeded"));

  private static final SecureRandom RANDOM = new SecureRandom();

  private Spans() {}

  static String tag(SpanData span, String key) {
    return span.getAttributes().get(AttributeKey.stringKey(key));
  }

  static Predicate<SpanData> named(String name) {
    return s -> s.getName().equals(name);
  }

  static Predicate<SpanData> tagged(String key, String value) {
    return s -> value.equals(tag(s, key));
  }

  static Predicate<SpanData> kind(SpanKind kind) {
    return s -> s.getKind() == kind;
  }

  /** The relay's delivery attempts of rows of {@code type}. */
  static Predicate<SpanData> delivery(String type) {
    return named(DELIVER).and(tagged("once.message.type", type));
  }

  /** The HTTP server span of a request to exactly {@code path}. */
  static Optional<SpanData> server(String path) {
    return SpanCapture.spans().stream()
        .filter(kind(SpanKind.SERVER).and(tagged("http.url", path)))
        .findFirst();
  }

  /**
   * Places an order of two units of a new product, waits until its stock is reserved, pays it and
   * waits until it is paid; the HTTP server span of the payment's request.
   */
  static SpanData paidOrder(OrderFixture shop) {
    String account = shop.client().openAccountWith("EUR", "100.00");
    shop.product("A", 5);
    String order = shop.place(account, lines("A", 2));
    await().atMost(SETTLED).until(() -> shop.status(order), "reserved"::equals);
    shop.pay(order);
    await().atMost(SETTLED).until(() -> shop.status(order), "paid"::equals);
    return await()
        .atMost(SETTLED)
        .until(() -> server("/v1/orders/" + order + "/pay"), Optional::isPresent)
        .orElseThrow();
  }

  /** The spans of {@code request}'s trace, once the orders consumer's span has ended in it. */
  static List<SpanData> untilOrderPaid(SpanData request) {
    return await()
        .atMost(SETTLED)
        .until(
            () -> SpanCapture.trace(request.getTraceId()),
            spans -> spans.stream().anyMatch(ORDER_PAID));
  }

  /** The one span of {@code spans} that {@code which} matches; fails if none or several. */
  static SpanData one(List<SpanData> spans, Predicate<SpanData> which) {
    List<SpanData> found = spans.stream().filter(which).toList();
    if (found.size() != 1) {
      throw new AssertionError(
          "expected exactly one such span, found " + found.size() + " in " + spans);
    }
    return found.get(0);
  }

  /** Whether {@code descendant} is below {@code ancestor} in the spans of their trace. */
  static boolean descends(SpanData descendant, SpanData ancestor, List<SpanData> trace) {
    Map<String, SpanData> byId =
        trace.stream().collect(Collectors.toMap(SpanData::getSpanId, Function.identity()));
    SpanData at = descendant;
    while (at != null && at.getParentSpanContext().isValid()) {
      if (at.getParentSpanId().equals(ancestor.getSpanId())) {
        return true;
      }
      at = byId.get(at.getParentSpanId());
    }
    return false;
  }

  /** A new random, valid W3C trace id (32 lower-case hex) or span id (16). */
  static String randomHex(int bytes) {
    byte[] value = new byte[bytes];
    RANDOM.nextBytes(value);
    value[0] |= 1; // never all zero
    return HexFormat.of().formatHex(value);
  }
}
