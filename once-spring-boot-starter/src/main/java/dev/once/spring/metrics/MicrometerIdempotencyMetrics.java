package dev.once.spring.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/** Counts outcomes in Micrometer as {@value #REQUESTS}, tagged {@code outcome}. */
final class MicrometerIdempotencyMetrics implements IdempotencyMetrics {

  /** Name of the counter. */
  public static final String REQUESTS = "once.idempotency.requests";

  private final Map<Outcome, Counter> counters = new EnumMap<>(Outcome.class);

  public MicrometerIdempotencyMetrics(MeterRegistry registry) {
    for (Outcome outcome : Outcome.values()) {
      counters.put(
          outcome,
          Counter.builder(REQUESTS)
              .description("Idempotent HTTP requests by outcome")
              .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
              .register(registry));
    }
  }

  @Override
  public void requestFinished(Outcome outcome) {
    counters.get(outcome).increment();
  }
}
