package dev.once.spring;

import dev.once.spring.actuate.OnceActuateAutoConfiguration;
import dev.once.spring.events.OnceEventsAutoConfiguration;
import dev.once.spring.inbox.OnceInboxAutoConfiguration;
import dev.once.spring.metrics.OnceMetricsAutoConfiguration;
import dev.once.spring.metrics.OnceRelayMetricsAutoConfiguration;
import dev.once.spring.outbox.OnceOutboxAutoConfiguration;
import dev.once.spring.outbox.OnceRelayAutoConfiguration;
import dev.once.spring.tracing.OnceTracingAutoConfiguration;
import dev.once.spring.web.OnceWebAutoConfiguration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfigurations;

/**
 * Once's auto-configurations, for the tests' context runners: what an application gets from the
 * starter's {@code AutoConfiguration.imports} ({@link AutoConfigurationWiringTest} holds the two
 * the same). A runner given only {@link OnceAutoConfiguration} gets Once's core alone.
 */
public final class OnceAutoConfigurations {
  /** Every auto-configuration of the starter, as the imports file lists them (by name). */
  public static final List<Class<?>> ALL =
      List.of(
          OnceAutoConfiguration.class,
          OnceActuateAutoConfiguration.class,
          OnceEventsAutoConfiguration.class,
          OnceInboxAutoConfiguration.class,
          OnceMetricsAutoConfiguration.class,
          OnceRelayMetricsAutoConfiguration.class,
          OnceOutboxAutoConfiguration.class,
          OnceRelayAutoConfiguration.class,
          OnceTracingAutoConfiguration.class,
          OnceWebAutoConfiguration.class);

  private OnceAutoConfigurations() {}

  /**
   * Once's auto-configurations and {@code others} (Spring Boot's), sorted as Spring Boot sorts
   * them, whatever order they are given in.
   */
  public static AutoConfigurations with(Class<?>... others) {
    List<Class<?>> all = new ArrayList<>(List.of(others));
    all.addAll(ALL);
    return AutoConfigurations.of(all.toArray(Class<?>[]::new));
  }
}
