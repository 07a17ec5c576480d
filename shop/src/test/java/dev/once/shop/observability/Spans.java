package dev.once.shop.observability;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.security.SecureRandom;
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
