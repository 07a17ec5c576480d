package dev.once.spring;

import java.util.List;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when {@code once.outbox.events} names at least one event type. */
final class EventsPublished implements Condition {
  static final String PROPERTY = "once.outbox.events";

  @Override
  public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
    return Binder.get(context.getEnvironment())
        .bind(PROPERTY, Bindable.listOf(String.class))
        .map(types -> types.stream().anyMatch(type -> type != null && !type.isBlank()))
        .orElse(false);
  }

  /** The configured event types, trimmed, blanks dropped. */
  static List<String> of(OnceProperties properties) {
    return properties.outbox().events().stream()
        .filter(type -> type != null && !type.isBlank())
        .map(String::trim)
        .distinct()
        .toList();
  }
}
