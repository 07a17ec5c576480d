package dev.once.spring.actuate;

import dev.once.inbox.InboxConsumer;
import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxRelay;
import dev.once.spring.OnceProperties;
import java.time.Clock;
import java.util.stream.Collectors;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;

/**
 * The Actuator endpoint {@code once} ({@link OnceEndpoint}), when the application has Spring Boot
 * Actuator. The bean always exists then; Actuator decides whether it is reachable (exposure) and
 * who may call its write operation (access, security). Imported by the auto-configuration by name.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ImportRuntimeHints(ActuateConfiguration.EndpointHints.class)
class ActuateConfiguration {
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
