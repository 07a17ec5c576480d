package dev.once.spring.web;

import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Decides which requests go through the {@code Idempotency-Key} contract: those with one of the
 * configured methods whose handler carries {@link Idempotent} (on the method, else on its class),
 * or whose path matches one of the configured patterns. The annotation wins over the patterns.
 */
final class IdempotentEndpoints {
  /** What a request needs. */
  public enum Need {
    /** Not idempotent: the filter passes it on untouched. */
    NONE,
    /** Idempotent if it sends an {@code Idempotency-Key}; without the header it runs as is. */
    OPTIONAL,
    /** Must send an {@code Idempotency-Key}. */
    REQUIRED
  }

  /**
   * What a request needs, and the retention of its endpoint.
   *
   * @param retention how long the key's answer is kept ({@link Idempotent#retention()}), or {@code
   *     null} for {@code once.idempotency.retention}
   */
  public record Endpoint(Need need, Duration retention) {
    static final Endpoint NOT_IDEMPOTENT = new Endpoint(Need.NONE, null);
    static final Endpoint BY_PATH = new Endpoint(Need.REQUIRED, null);
  }

  private final Map<Idempotent, Optional<Duration>> retentions = new ConcurrentHashMap<>();
  private final Set<String> methods;
  private final List<PathPattern> patterns;
  private final IdempotentHandlers handlers;

  private IdempotentEndpoints(
      Set<String> methods, List<PathPattern> patterns, IdempotentHandlers handlers) {
    this.methods = methods;
    this.patterns = patterns;
    this.handlers = handlers;
  }

  /**
   * Endpoints chosen by path pattern alone.
   *
   * @param methods HTTP methods, case-insensitive
   * @param paths Spring {@link PathPattern} patterns, matched against the path within the
   *     application (context path removed); may be empty
   */
  public static IdempotentEndpoints of(List<String> methods, List<String> paths) {
    return of(methods, paths, IdempotentHandlers.NONE);
  }

  /**
   * Endpoints chosen by their handlers' {@link Idempotent} and by path pattern.
   *
   * @param methods HTTP methods, case-insensitive
   * @param paths Spring {@link PathPattern} patterns, matched against the path within the
   *     application (context path removed); may be empty
   * @param handlers finds the annotation of a request's handler
   * @throws org.springframework.web.util.pattern.PatternParseException for a malformed pattern
   */
  public static IdempotentEndpoints of(
      List<String> methods, List<String> paths, IdempotentHandlers handlers) {
    PathPatternParser parser = PathPatternParser.defaultInstance;
    return new IdempotentEndpoints(
        methods.stream().map(m -> m.trim().toUpperCase(Locale.ROOT)).collect(Collectors.toSet()),
        paths.stream().map(String::trim).map(parser::parse).toList(),
        handlers);
  }

  /** Whether the request must, may or need not send an {@code Idempotency-Key}. */
  public Need need(HttpServletRequest request) {
    return endpoint(request).need();
  }

  /**
   * Whether the request must, may or need not send an {@code Idempotency-Key}, and how long its key
   * is kept.
   *
   * @throws IllegalStateException if the handler's {@link Idempotent#retention()} is not usable
   *     (found at the application's start by {@link MvcIdempotentHandlers})
   */
  public Endpoint endpoint(HttpServletRequest request) {
    if (!methods.contains(request.getMethod().toUpperCase(Locale.ROOT))) {
      return Endpoint.NOT_IDEMPOTENT;
    }
    Idempotent annotation = handlers.find(request);
    if (annotation != null) {
      return new Endpoint(
          annotation.required() ? Need.REQUIRED : Need.OPTIONAL, retention(annotation));
    }
    return matchesPath(request) ? Endpoint.BY_PATH : Endpoint.NOT_IDEMPOTENT;
  }

  private Duration retention(Idempotent annotation) {
    if (annotation.retention().isEmpty()) {
      return null;
    }
    return retentions
        .computeIfAbsent(
            annotation,
            a -> Optional.ofNullable(EndpointRetention.of(a, "the handler of this request")))
        .orElse(null);
  }

  private boolean matchesPath(HttpServletRequest request) {
    if (patterns.isEmpty()) {
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
