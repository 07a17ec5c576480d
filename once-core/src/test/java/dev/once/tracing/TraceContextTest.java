package dev.once.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** W3C trace context validation: what is kept, what is refused, and that nothing throws. */
class TraceContextTest {
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String SPAN_ID = "00f067aa0ba902b7";
  private static final String VALID = "00-" + TRACE_ID + "-" + SPAN_ID + "-01";

  @Test
  void aValidTraceparentIsKeptWithItsFields() {
    TraceContext context = TraceContext.parse(VALID, "congo=t61rcWkgMzE").orElseThrow();

    assertThat(context.traceparent()).isEqualTo(VALID);
    assertThat(context.tracestate()).isEqualTo("congo=t61rcWkgMzE");
    assertThat(context.traceId()).isEqualTo(TRACE_ID);
    assertThat(context.parentId()).isEqualTo(SPAN_ID);
    assertThat(context.sampled()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"00", "02", "fe", "03", "09", "0b"})
  void theSampledFlagIsBitZeroOfTheFlags(String flags) {
    TraceContext context =
        TraceContext.parse("00-" + TRACE_ID + "-" + SPAN_ID + "-" + flags, null).orElseThrow();

    assertThat(context.sampled()).isEqualTo((Integer.parseInt(flags, 16) & 1) == 1);
  }

  static Stream<String> malformedTraceparents() {
    return Stream.of(
        "",
        " ",
        "00",
        // one character short and one too long, in each field
        "00-" + TRACE_ID.substring(1) + "-" + SPAN_ID + "-01",
        "00-" + TRACE_ID + "0-" + SPAN_ID + "-01",
        "00-" + TRACE_ID + "-" + SPAN_ID.substring(1) + "-01",
        "00-" + TRACE_ID + "-" + SPAN_ID + "0-01",
        "00-" + TRACE_ID + "-" + SPAN_ID + "-1",
        "00-" + TRACE_ID + "-" + SPAN_ID + "-011",
        // version 00 is exactly 55 characters: nothing may follow, not even a field
        VALID + "-",
        VALID + "-extra",
        // upper-case hex anywhere
        "00-" + TRACE_ID.toUpperCase() + "-" + SPAN_ID + "-01",
        "00-" + TRACE_ID + "-" + SPAN_ID.toUpperCase() + "-01",
        "00-" + TRACE_ID + "-" + SPAN_ID + "-0A",
        "0A-" + TRACE_ID + "-" + SPAN_ID + "-01",
        // all-zero ids
        "00-00000000000000000000000000000000-" + SPAN_ID + "-01",
        "00-" + TRACE_ID + "-0000000000000000-01",
        // version ff is invalid, in any length
        "ff-" + TRACE_ID + "-" + SPAN_ID + "-01",
        "ff-" + TRACE_ID + "-" + SPAN_ID + "-01-future",
        // wrong separators, non-hex, whitespace, non-ASCII
        "00_" + TRACE_ID + "-" + SPAN_ID + "-01",
        "00-" + TRACE_ID + "_" + SPAN_ID + "-01",
        "00-" + TRACE_ID + "-" + SPAN_ID + "_01",
        "00-" + TRACE_ID.replace('a', 'g') + "-" + SPAN_ID + "-01",
        " 00-" + TRACE_ID + "-" + SPAN_ID + "-0",
        "00-" + TRACE_ID + "-" + SPAN_ID + "-0\n",
        "00-" + TRACE_ID.replace('a', '\u0430') + "-" + SPAN_ID + "-01",
        // a future version: char 56 must be '-', its fields visible ASCII, its length bounded
        "01-" + TRACE_ID + "-" + SPAN_ID + "-01x",
        "01-" + TRACE_ID + "-" + SPAN_ID + "-01-a b",
        "01-" + TRACE_ID + "-" + SPAN_ID + "-01-\u0000",
        "01-" + TRACE_ID + "-" + SPAN_ID + "-01-" + "a".repeat(1000),
        "01-" + TRACE_ID.substring(1) + "-" + SPAN_ID + "-01-aa");
  }

  @ParameterizedTest
  @MethodSource("malformedTraceparents")
  void aMalformedTraceparentIsEmptyNeverAnException(String traceparent) {
    assertThat(TraceContext.parse(traceparent, "k=v")).isEmpty();
    assertThatThrownBy(() -> new TraceContext(traceparent, null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aMissingTraceparentIsEmpty() {
    assertThat(TraceContext.parse(null, null)).isEmpty();
    assertThat(TraceContext.parse(null, "k=v")).isEmpty();
  }

  @Test
  void aFutureVersionIsReadByItsVersion00Part() {
    String future = "cc-" + TRACE_ID + "-" + SPAN_ID + "-01-what-the-future-holds";

    TraceContext context = TraceContext.parse(future, null).orElseThrow();

    assertThat(context.traceparent()).isEqualTo(future);
    assertThat(context.traceId()).isEqualTo(TRACE_ID);
    assertThat(context.parentId()).isEqualTo(SPAN_ID);
    assertThat(TraceContext.parse("01-" + TRACE_ID + "-" + SPAN_ID + "-00", null)).isPresent();
  }

  @Test
  void aTracestateAtTheLimitIsKeptAndOneCharacterMoreIsDropped() {
    String atLimit = "k=" + "v".repeat(TraceContext.MAX_TRACESTATE_LENGTH - 2);

    assertThat(TraceContext.parse(VALID, atLimit).orElseThrow().tracestate()).isEqualTo(atLimit);
    TraceContext over = TraceContext.parse(VALID, atLimit + "v").orElseThrow();
    assertThat(over.traceparent()).as("the traceparent stays").isEqualTo(VALID);
    assertThat(over.tracestate()).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "k=v\n", "k=\u0000v", "k=v\u007f", "k=\u00e9", "k=v\r\nx-injected: 1"})
  void aTracestateWithControlOrNonAsciiCharactersIsDropped(String tracestate) {
    TraceContext context = TraceContext.parse(VALID, tracestate).orElseThrow();

    assertThat(context.traceparent()).isEqualTo(VALID);
    assertThat(context.tracestate()).isNull();
  }

  @Test
  void visibleAsciiAndSpacesAreAValidTracestate() {
    String tracestate = "rojo=00f067aa0ba902b7, congo=t61rcWkgMzE ~!*";

    assertThat(TraceContext.parse(VALID, tracestate).orElseThrow().tracestate())
        .isEqualTo(tracestate);
  }
}
