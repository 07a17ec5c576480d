package dev.once.spring.events;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** The {@link EventUpcaster} beans, one per event and version. Immutable and thread-safe. */
final class EventUpcasters {
  private final Map<Step, EventUpcaster> steps;

  private record Step(String event, int fromVersion) {}

  private EventUpcasters(Map<Step, EventUpcaster> steps) {
    this.steps = Map.copyOf(steps);
  }

  /**
   * @throws IllegalStateException if two upcasters read the same version of one event, or one reads
   *     a version below 1
   */
  public static EventUpcasters of(Collection<? extends EventUpcaster> upcasters) {
    Map<Step, EventUpcaster> steps = new HashMap<>();
    for (EventUpcaster upcaster : upcasters) {
      Objects.requireNonNull(upcaster, "upcaster");
      String event = Objects.requireNonNull(upcaster.event(), "event");
      if (upcaster.fromVersion() < 1) {
        throw new IllegalStateException(
            "The EventUpcaster "
                + upcaster.getClass().getName()
                + " reads version "
                + upcaster.fromVersion()
                + " of "
                + event
                + "; versions start at 1");
      }
      EventUpcaster other = steps.putIfAbsent(new Step(event, upcaster.fromVersion()), upcaster);
      if (other != null) {
        throw new IllegalStateException(
            "Two EventUpcasters turn version "
                + upcaster.fromVersion()
                + " of "
                + event
                + " into the next: "
                + other.getClass().getName()
                + " and "
                + upcaster.getClass().getName()
                + "; keep one");
      }
    }
    return new EventUpcasters(steps);
  }

  /** None. */
  public static EventUpcasters none() {
    return new EventUpcasters(Map.of());
  }

  /** The upcaster from {@code fromVersion} of {@code event}, if any. */
  Optional<EventUpcaster> from(String event, int fromVersion) {
    return Optional.ofNullable(steps.get(new Step(event, fromVersion)));
  }
}
