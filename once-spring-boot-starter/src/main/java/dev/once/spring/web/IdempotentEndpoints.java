package dev.once.spring.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/** Decides which requests must carry an {@code Idempotency-Key}: by method and path pattern. */
public final class IdempotentEndpoints {
  private final Set<String> methods;
  private final List<PathPattern> patterns;

  private IdempotentEndpoints(Set<String> methods, List<PathPattern> patterns) {
    this.methods = methods;
    this.patterns = patterns;
  }

  /**
   * @param methods HTTP methods, case-insensitive
   * @param paths Spring {@link PathPattern} patterns, matched against the path within the
   *     application (context path removed)
   */
  public static IdempotentEndpoints of(List<String> methods, List<String> paths) {
    PathPatternParser parser = PathPatternParser.defaultInstance;
    return new IdempotentEndpoints(
        methods.stream().map(m -> m.trim().toUpperCase(Locale.ROOT)).collect(Collectors.toSet()),
        paths.stream().map(String::trim).map(parser::parse).toList());
  }

  /** Whether the request is one the application marked idempotent. */
  public boolean matches(HttpServletRequest request) {
    if (!methods.contains(request.getMethod().toUpperCase(Locale.ROOT))) {
      return false;
    }
    String uri = request.getRequestURI();
    String path = uri.substring(Math.min(request.getContextPath().length(), uri.length()));
    PathContainer container = PathContainer.parsePath(path);
    for (PathPattern pattern : patterns) {
      if (pattern.matches(container)) {
        return true;
      }
    }
    return false;
  }
}
