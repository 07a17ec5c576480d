package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.validation.ObjectError;

/**
 * Binds {@link OnceProperties} in an application context, as an application's start does, and
 * renders what stops the start as Once's failure report does ({@link
 * OncePropertiesFailureAnalyzer}): property (dashed), reason, value.
 */
public final class BoundProperties {
  private BoundProperties() {}

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
      lines.add(OncePropertiesFailureAnalyzer.line(error));
    }
    return String.join("\n", lines);
  }
}
