package dev.once.spring.internal;

import java.util.List;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when {@code once.outbox.events} names at least one event type. */
public final class EventsPublished implements Condition {
  public static final String PROPERTY = "once.outbox.events";

  @Override
  public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
    return Binder.get(context.getEnvironment())
        .bind(PROPERTY, Bindable.listOf(String.class))
        .map(types -> types.stream().anyMatch(type -> type != null && !type.isBlank()))
        .orElse(false);
  }

  /** {@code once.outbox.events} as configured: trimmed, blanks and repeats dropped. */
  public static List<String> names(List<String> configured) {
    return configured.stream()
        .filter(type -> type != null && !type.isBlank())
        .map(String::trim)
        .distinct()
        .toList();
  }
}
