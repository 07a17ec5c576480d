package dev.once.spring.actuate;

import dev.once.inbox.InboxConsumer;
import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxRelay;
import dev.once.spring.OnceAutoConfiguration;
import dev.once.spring.OnceProperties;
import dev.once.spring.outbox.OnceOutboxAutoConfiguration;
import java.time.Clock;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;

/**
 * Auto-configuration of the Actuator endpoint {@code once} ({@link OnceEndpoint}), when the
 * application has Spring Boot Actuator. The bean always exists then (it needs the outbox's admin,
 * which {@link OnceOutboxAutoConfiguration}, ordered before this, makes); Actuator decides whether
 * it is reachable (exposure) and who may call its write operation (access, security).
 */
@AutoConfiguration(after = {OnceAutoConfiguration.class, OnceOutboxAutoConfiguration.class})
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean({DataSource.class, OnceProperties.class})
@ImportRuntimeHints(OnceActuateAutoConfiguration.EndpointHints.class)
public final class OnceActuateAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnBean(OutboxAdmin.class)
  OnceEndpoint onceEndpoint(
      OutboxAdmin outbox,
      OnceProperties properties,
      ObjectProvider<Clock> clock,
      ObjectProvider<OutboxRelay> relays,
      ObjectProvider<InboxConsumer> consumers) {
    return new OnceEndpoint(
        outbox,
        properties.inbox().retention(),
        clock.getIfAvailable(Clock::systemUTC),
        () ->
            relays
                .orderedStream()
                .flatMap(relay -> relay.types().stream())
                .collect(Collectors.toUnmodifiableSet()),
        () ->
            consumers
                .orderedStream()
                .map(InboxConsumer::name)
                .collect(Collectors.toUnmodifiableSet()));
  }

  /**
   * The endpoint's answers for a native image: Actuator registers what an operation method returns,
   * but these travel inside {@code WebEndpointResponse<Object>}, so Jackson's access to them is
   * registered here.
   */
  static class EndpointHints implements RuntimeHintsRegistrar {
    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
      new BindingReflectionHintsRegistrar()
          .registerReflectionHints(
              hints.reflection(),
              OnceEndpoint.Report.class,
              OnceEndpoint.DeadPage.class,
              OnceEndpoint.DeadRow.class,
              OnceEndpoint.Moved.class,
              OnceEndpoint.Paused.class,
              OnceEndpoint.Resumed.class,
              OnceEndpoint.Replays.class,
              OnceEndpoint.MovedMany.class,
              dev.once.outbox.Replay.class,
              OnceEndpoint.Refusal.class);
    }
  }
}
