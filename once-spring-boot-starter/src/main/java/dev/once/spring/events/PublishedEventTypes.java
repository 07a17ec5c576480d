package dev.once.spring.events;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

/**
 * The event types the application publishes with {@link OnceEvents}: the names of the {@link
 * OnceEvent} records in the application's packages (those of its {@code @SpringBootApplication}
 * class and below, Spring Boot's auto-configuration packages), found at start. They take the place
 * of {@code once.outbox.events} for typed events: the transports register them, so rows of a type
 * no consumer takes (any more) are done at once, and {@code once-kafka} publishes them. A record
 * outside those packages is not found; its type is still delivered to the listeners that take it.
 *
 * <p>An AOT-processed application does not scan: the build recorded the names it found, and the
 * generated bean definition makes them with {@link #of} ({@link EventsAotProcessor}).
 */
public final class PublishedEventTypes {
  private final Set<String> names;

  private PublishedEventTypes(Set<String> names) {
    this.names = Collections.unmodifiableSet(new TreeSet<>(names));
  }

  /** These names. */
  public static PublishedEventTypes of(Collection<String> names) {
    return new PublishedEventTypes(new TreeSet<>(names));
  }

  /**
   * The {@link OnceEvent} records in {@code packages} and below.
   *
   * @throws IllegalStateException if one of them is not a valid event record
   */
  public static PublishedEventTypes scan(
      Collection<String> packages, Environment environment, ResourceLoader resources) {
    Set<String> names = new TreeSet<>();
    scanTypes(packages, environment, resources).forEach(type -> names.add(type.name()));
    return new PublishedEventTypes(names);
  }

  /**
   * The {@link OnceEvent} record types in {@code packages} and below: the scan of {@link #scan},
   * which the starter's AOT processing also runs at build time ({@link EventsAotProcessor}).
   *
   * @throws IllegalStateException if one of them is not a valid event record
   */
  static List<EventType> scanTypes(
      Collection<String> packages, Environment environment, ResourceLoader resources) {
    ClassPathScanningCandidateComponentProvider scanner =
        new ClassPathScanningCandidateComponentProvider(false, environment);
    scanner.setResourceLoader(resources);
    scanner.addIncludeFilter(new AnnotationTypeFilter(OnceEvent.class, false));
    ClassLoader loader = resources.getClassLoader();
    Map<String, EventType> types = new TreeMap<>();
    for (String base : packages) {
      scanner
          .findCandidateComponents(base)
          .forEach(
              candidate -> {
                Class<?> type = ClassUtils.resolveClassName(candidate.getBeanClassName(), loader);
                try {
                  types.put(type.getName(), EventType.of(type));
                } catch (IllegalArgumentException e) {
                  throw new IllegalStateException(e.getMessage(), e);
                }
              });
    }
    return List.copyOf(types.values());
  }

  /** The types, sorted. */
  public Set<String> names() {
    return names;
  }

  @Override
  public String toString() {
    return names.toString();
  }
}
