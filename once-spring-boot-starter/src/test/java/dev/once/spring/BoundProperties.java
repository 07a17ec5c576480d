package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

/**
 * Binds {@link OnceProperties} in an application context, as an application's start does, and
 * renders what stops the start the way Spring Boot's failure report does: property, value, reason.
 */
public final class BoundProperties {
  private BoundProperties() {}

  /**
   * How Spring Boot's report names a property given as in a properties file: each dashed segment in
   * the record component's camel case (once.outbox.relay.poll-interval is reported as
   * once.outbox.relay.pollInterval); bracketed keys stay as they are.
   */
  public static String reported(String property) {
    StringBuilder out = new StringBuilder();
    boolean upper = false;
    int depth = 0;
    for (char c : property.toCharArray()) {
      if (c == '[') {
        depth++;
      } else if (c == ']') {
        depth--;
      }
      if (c == '-' && depth == 0) {
        upper = true;
        continue;
      }
      out.append(upper ? Character.toUpperCase(c) : c);
      upper = false;
    }
    return out.toString();
  }

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(OnceProperties.class)
  static class PropertiesOnly {}

  private static ApplicationContextRunner runner(String... properties) {
    return new ApplicationContextRunner()
        .withUserConfiguration(PropertiesOnly.class)
        .withPropertyValues(properties);
  }

  /** The properties bound from {@code properties}; fails if the start fails. */
  static OnceProperties bind(String... properties) {
    AtomicReference<OnceProperties> bound = new AtomicReference<>();
    runner(properties)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              bound.set(context.getBean(OnceProperties.class));
            });
    return bound.get();
  }

  /**
   * Why the start with {@code properties} fails, one line per rejected property: {@code <property>:
   * <reason>, but was '<value>'}; fails if the start succeeds or fails for another reason.
   */
  static String failure(String... properties) {
    AtomicReference<String> report = new AtomicReference<>();
    runner(properties)
        .run(
            context -> {
              assertThat(context).hasFailed();
              report.set(report(context.getStartupFailure()));
            });
    return report.get();
  }

  /**
   * The validation errors that stopped a start, one line per rejected property: {@code <property>:
   * <reason>, but was '<value>'}; fails if the start failed for another reason.
   */
  public static String report(Throwable startupFailure) {
    Throwable t = startupFailure;
    while (t != null && !(t instanceof BindValidationException)) {
      t = t.getCause();
    }
    assertThat(t).as("a BindValidationException in %s", startupFailure).isNotNull();
    List<String> lines = new ArrayList<>();
    for (ObjectError error : ((BindValidationException) t).getValidationErrors()) {
      if (error instanceof FieldError field) {
        lines.add(
            field.getObjectName()
                + "."
                + field.getField()
                + ": "
                + field.getDefaultMessage()
                + ", but was '"
                + field.getRejectedValue()
                + "'");
      } else {
        lines.add(error.getObjectName() + ": " + error.getDefaultMessage());
      }
    }
    return String.join("\n", lines);
  }
}
