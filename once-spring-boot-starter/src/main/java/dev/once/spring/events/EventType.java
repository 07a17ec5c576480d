package dev.once.spring.events;

import java.util.Objects;

/**
 * An {@link OnceEvent} record type: its class, name and version, checked.
 *
 * @param recordType the record class
 * @param name its {@link OnceEvent#name()}
 * @param version its {@link OnceEvent#version()}
 */
record EventType(Class<?> recordType, String name, int version) {
  private static final ClassValue<EventType> TYPES =
      new ClassValue<>() {
        @Override
        protected EventType computeValue(Class<?> type) {
          return check(type);
        }
      };

  /**
   * The event type of {@code type}.
   *
   * @throws IllegalArgumentException if {@code type} is not a record annotated with {@link
   *     OnceEvent}, or its name or version is out of range
   */
  public static EventType of(Class<?> type) {
    Objects.requireNonNull(type, "type");
    return TYPES.get(type);
  }

  private static EventType check(Class<?> type) {
    OnceEvent event = type.getAnnotation(OnceEvent.class);
    if (event == null) {
      throw new IllegalArgumentException(
          type.getName()
              + " is not an event: annotate the record with @OnceEvent(name = \"...\", version ="
              + " ...)");
    }
    if (!type.isRecord()) {
      throw new IllegalArgumentException(
          "@OnceEvent belongs on a record; " + type.getName() + " is not one");
    }
    String name = event.name();
    if (name.isBlank() || name.length() > 200 || !name.strip().equals(name)) {
      throw new IllegalArgumentException(
          "The @OnceEvent name of "
              + type.getName()
              + " must be 1 to 200 characters without surrounding blanks, not '"
              + name
              + "'");
    }
    if (event.version() < 1) {
      throw new IllegalArgumentException(
          "The @OnceEvent version of "
              + type.getName()
              + " must be at least 1, not "
              + event.version());
    }
    return new EventType(type, name, event.version());
  }
}
