package dev.once.kafka.spring;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@code spring.kafka.bootstrap-servers} names a server and {@code once.kafka.enabled}
 * is not false: an application that has {@code once-kafka} on its class path but no broker
 * configured keeps the in-process transport, and never connects to a broker by surprise.
 */
final class KafkaTransportEnabled implements Condition {
  @Override
  public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
    Binder binder = Binder.get(context.getEnvironment());
    boolean enabled = binder.bind("once.kafka.enabled", Boolean.class).orElse(true);
    boolean servers =
        binder
            .bind("spring.kafka.bootstrap-servers", Bindable.listOf(String.class))
            .map(list -> list.stream().anyMatch(server -> server != null && !server.isBlank()))
            .orElse(false);
    return enabled && servers;
  }
}
