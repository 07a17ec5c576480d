package dev.once.spring.web;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationContext;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.handler.AbstractHandlerMethodMapping;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * Finds {@link Idempotent} on the handler Spring MVC chooses for a request, by asking the
 * application's {@link HandlerMapping} beans in the order the {@code DispatcherServlet} asks them.
 *
 * <p>Cheap per request: if no handler method of the application carries the annotation (checked
 * once, on the first request), nothing is looked up; otherwise the lookup is the one Spring MVC
 * does, and the annotation of each handler method is read once and cached. The lookup runs on a
 * view of the request that keeps its attributes to itself and whose parameters are those of the
 * query string alone, so the body stays unread for the filter. A lookup that fails (Spring MVC
 * refuses the request before choosing a handler: unsupported method or media type, unsatisfied
 * parameter conditions) finds no handler.
 */
final class MvcIdempotentHandlers implements IdempotentHandlers, SmartInitializingSingleton {
  private static final Logger log = LoggerFactory.getLogger(MvcIdempotentHandlers.class);

  private final ApplicationContext context;
  private final Map<HandlerKey, Optional<Idempotent>> annotations = new ConcurrentHashMap<>();
  private volatile List<HandlerMapping> mappings;

  /** The handler mappings are read from {@code context} on the first request. */
  public MvcIdempotentHandlers(ApplicationContext context) {
    this.context = context;
  }

  @Override
  public Idempotent find(HttpServletRequest request) {
    List<HandlerMapping> current = mappings();
    if (current.isEmpty()) {
      return null;
    }
    LookupRequest lookup = new LookupRequest(request);
    ServletRequestPathUtils.parseAndCache(lookup);
    for (HandlerMapping mapping : current) {
      HandlerExecutionChain chain;
      try {
        chain = mapping.getHandler(lookup);
      } catch (Exception e) {
        log.debug("No handler for {} {}: {}", request.getMethod(), request.getRequestURI(), e);
        return null;
      }
      if (chain != null) {
        return chain.getHandler() instanceof HandlerMethod method ? annotation(method) : null;
      }
    }
    return null;
  }

  private Idempotent annotation(HandlerMethod handler) {
    return annotations
        .computeIfAbsent(
            new HandlerKey(handler.getBeanType(), handler.getMethod()),
            key -> Optional.ofNullable(annotationOf(key.beanType(), key.method())))
        .orElse(null);
  }

  /**
   * Reads the annotation of every handler method once the application's beans are there, so that an
   * unusable {@link Idempotent#retention()} fails the start, naming its handler, instead of a
   * request.
   *
   * @throws IllegalStateException for an unusable retention
   */
  @Override
  public void afterSingletonsInstantiated() {
    for (HandlerMapping mapping : handlerMappings()) {
      if (mapping instanceof AbstractHandlerMethodMapping<?> methods) {
        methods.getHandlerMethods().values().forEach(this::annotation);
      }
    }
  }

  /** The annotation; its retention checked, the message naming the handler method. */
  private static Idempotent annotationOf(Class<?> beanType, Method method) {
    Idempotent onMethod = AnnotatedElementUtils.findMergedAnnotation(method, Idempotent.class);
    Idempotent found =
        onMethod != null
            ? onMethod
            : AnnotatedElementUtils.findMergedAnnotation(beanType, Idempotent.class);
    if (found != null) {
      EndpointRetention.of(found, beanType.getName() + "#" + method.getName());
    }
    return found;
  }

  /**
   * The application's handler mappings, or none if no handler method carries {@link Idempotent}.
   */
  private List<HandlerMapping> mappings() {
    List<HandlerMapping> current = mappings;
    if (current == null) {
      List<HandlerMapping> sorted = handlerMappings();
      current = anyAnnotated(sorted) ? List.copyOf(sorted) : List.of();
      mappings = current;
    }
    return current;
  }

  /** The application's handler mappings, in the order the {@code DispatcherServlet} asks them. */
  private List<HandlerMapping> handlerMappings() {
    Map<String, HandlerMapping> beans =
        BeanFactoryUtils.beansOfTypeIncludingAncestors(context, HandlerMapping.class, true, false);
    List<HandlerMapping> sorted = new ArrayList<>(beans.values());
    AnnotationAwareOrderComparator.sort(sorted);
    return sorted;
  }

  private boolean anyAnnotated(List<HandlerMapping> all) {
    boolean any = false;
    for (HandlerMapping mapping : all) {
      if (mapping instanceof AbstractHandlerMethodMapping<?> methods) {
        for (HandlerMethod handler : methods.getHandlerMethods().values()) {
          Idempotent found = annotation(handler);
          any |= found != null;
        }
      }
    }
    return any;
  }

  private record HandlerKey(Class<?> beanType, Method method) {}

  /**
   * The request as the handler mappings see it during the filter's lookup: attributes they set stay
   * here, and parameters come from the query string only, so that no form body is read.
   */
  private static final class LookupRequest extends ParameterMapRequest {
    private final Map<String, Object> attributes = new HashMap<>();
    private final Set<String> removed = new HashSet<>();

    LookupRequest(HttpServletRequest request) {
      super(request);
    }

    @Override
    public Object getAttribute(String name) {
      if (attributes.containsKey(name)) {
        return attributes.get(name);
      }
      return removed.contains(name) ? null : super.getAttribute(name);
    }

    @Override
    public Enumeration<String> getAttributeNames() {
      Set<String> names = new HashSet<>(Collections.list(super.getAttributeNames()));
      names.removeAll(removed);
      names.addAll(attributes.keySet());
      return Collections.enumeration(names);
    }

    @Override
    public void setAttribute(String name, Object value) {
      if (value == null) {
        removeAttribute(name);
        return;
      }
      attributes.put(name, value);
      removed.remove(name);
    }

    @Override
    public void removeAttribute(String name) {
      attributes.remove(name);
      removed.add(name);
    }

    @Override
    Map<String, String[]> parameters() {
      String query = getQueryString();
      Map<String, List<String>> parameters = new LinkedHashMap<>();
      if (query != null) {
        addEncodedPairs(query, StandardCharsets.UTF_8, parameters);
      }
      return toArrays(parameters);
    }
  }
}
