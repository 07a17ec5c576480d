package dev.once.spring;

import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

/**
 * Reports a start stopped by a bad {@code once.*} value with each property's name as it is written
 * in a properties file ({@code once.idempotency.http.max-body-size}, not the record component's
 * {@code maxBodySize} that Spring Boot's own report would show), its value, where it came from and
 * the allowed range. Other binding failures are left to Spring Boot.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
final class OncePropertiesFailureAnalyzer extends AbstractFailureAnalyzer<BindValidationException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, BindValidationException cause) {
    String prefix = cause.getValidationErrors().getName().toString();
    if (!prefix.equals("once") && !prefix.startsWith("once.")) {
      return null;
    }
    StringBuilder description = new StringBuilder("Once's configuration is invalid:\n");
    for (ObjectError error : cause.getValidationErrors()) {
      description.append('\n').append(line(error));
      Origin origin = Origin.from(error);
      if (origin != null) {
        description.append("\n    (from ").append(origin).append(')');
      }
    }
    return new FailureAnalysis(
        description.toString(),
        "Correct the values above in your application's configuration; docs/configuration.md"
            + " lists every once.* property with its default and range.",
        cause);
  }

  /** One rejected value: {@code <property>: <reason>, but was '<value>'}. */
  static String line(ObjectError error) {
    if (error instanceof FieldError field) {
      return property(field.getObjectName(), field.getField())
          + ": "
          + field.getDefaultMessage()
          + ", but was '"
          + field.getRejectedValue()
          + "'";
    }
    return error.getObjectName() + ": " + error.getDefaultMessage();
  }

  /**
   * The property's name in the dashed form of the documentation: each camel-case segment of {@code
   * field} dashed, the keys in brackets (message types) kept as they are.
   */
  static String property(String objectName, String field) {
    StringBuilder out = new StringBuilder(objectName).append('.');
    int depth = 0;
    for (char c : field.toCharArray()) {
      if (c == '[') {
        depth++;
      } else if (c == ']') {
        depth--;
      }
      if (depth == 0 && Character.isUpperCase(c)) {
        out.append('-').append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
