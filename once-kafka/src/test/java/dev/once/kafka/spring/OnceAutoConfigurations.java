package dev.once.kafka.spring;

import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.util.ClassUtils;

/**
 * Once's auto-configurations, for the tests' context runners: the starter's, read from its {@code
 * AutoConfiguration.imports} (so a new one is never missing here), and once-kafka's.
 */
final class OnceAutoConfigurations {
  /** The starter's auto-configurations, as its imports file lists them. */
  static final List<Class<?>> STARTER = starter();

  /** The starter's and {@link OnceKafkaAutoConfiguration}. */
  static final List<Class<?>> ALL = all();

  private OnceAutoConfigurations() {}

  /**
   * Once's auto-configurations and {@code others} (Spring Boot's), sorted as Spring Boot sorts
   * them, whatever order they are given in.
   */
  static AutoConfigurations with(Class<?>... others) {
    List<Class<?>> all = new ArrayList<>(List.of(others));
    all.addAll(ALL);
    return AutoConfigurations.of(all.toArray(Class<?>[]::new));
  }

  private static List<Class<?>> starter() {
    ClassLoader loader = OnceAutoConfigurations.class.getClassLoader();
    return ImportCandidates.load(AutoConfiguration.class, loader).getCandidates().stream()
        .filter(name -> name.startsWith("dev.once.spring."))
        .<Class<?>>map(name -> ClassUtils.resolveClassName(name, loader))
        .toList();
  }

  private static List<Class<?>> all() {
    List<Class<?>> all = new ArrayList<>(STARTER);
    all.add(OnceKafkaAutoConfiguration.class);
    return List.copyOf(all);
  }
}
