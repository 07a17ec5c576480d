package dev.once.spring.events;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * One {@link OnceListener} method, checked.
 *
 * @param beanName the bean it is called on
 * @param method the method, declared on the bean's class
 * @param event its first parameter's event type
 * @param consumer its consumer name
 * @param withMetadata whether it takes an {@link EventMetadata} second
 * @param batch its {@link OnceListener#batch()}
 */
record ListenerMethod(
    String beanName,
    Method method,
    EventType event,
    String consumer,
    boolean withMetadata,
    boolean batch) {

  /**
   * The listener methods of {@code beanClass}.
   *
   * @throws IllegalStateException if one of them has the wrong shape
   */
  static List<ListenerMethod> of(String beanName, Class<?> beanClass) {
    if (!AnnotationUtils.isCandidateClass(beanClass, OnceListener.class)) {
      return List.of();
    }
    Map<Method, OnceListener> annotated =
        MethodIntrospector.selectMethods(
            beanClass,
            (MethodIntrospector.MetadataLookup<OnceListener>)
                method -> AnnotatedElementUtils.findMergedAnnotation(method, OnceListener.class));
    List<ListenerMethod> listeners = new ArrayList<>();
    annotated.forEach(
        (method, annotation) ->
            listeners.add(check(beanName, method, annotation.consumer(), annotation.batch())));
    listeners.sort((a, b) -> a.method().toGenericString().compareTo(b.method().toGenericString()));
    return listeners;
  }

  /**
   * The listener methods of the beans {@code beanNames}, by their types as the bean factory
   * predicts them (a bean whose type it cannot predict has none).
   */
  static List<ListenerMethod> onBeans(BeanFactory beans, Iterable<String> beanNames) {
    List<ListenerMethod> listeners = new ArrayList<>();
    for (String name : beanNames) {
      Class<?> type;
      try {
        type = beans.getType(name, false);
      } catch (RuntimeException e) {
        continue; // a type that cannot be predicted yet: not a listener bean of the application
      }
      if (type != null) {
        listeners.addAll(of(name, ClassUtils.getUserClass(type)));
      }
    }
    return listeners;
  }

  /**
   * {@code listeners} by consumer name (sorted), then by event type.
   *
   * @throws IllegalStateException if two methods of one consumer take the same event type
   */
  static Map<String, Map<String, ListenerMethod>> byConsumer(List<ListenerMethod> listeners) {
    Map<String, Map<String, ListenerMethod>> consumers = new TreeMap<>();
    for (ListenerMethod listener : listeners) {
      Map<String, ListenerMethod> byType =
          consumers.computeIfAbsent(listener.consumer(), c -> new LinkedHashMap<>());
      ListenerMethod other = byType.putIfAbsent(listener.event().name(), listener);
      if (other != null) {
        throw new IllegalStateException(
            "Consumer "
                + listener.consumer()
                + " has two @OnceListener methods for event "
                + listener.event().name()
                + ": "
                + other
                + " and "
                + listener
                + ". A consumer applies each event once; give one of them another consumer name.");
      }
    }
    return consumers;
  }

  private static ListenerMethod check(
      String beanName, Method method, String consumer, boolean batch) {
    String where = "@OnceListener method " + method.toGenericString() + " (bean " + beanName + ")";
    if (Modifier.isStatic(method.getModifiers())) {
      throw new IllegalStateException(where + " is static; listeners are methods of a bean");
    }
    if (consumer.isBlank() || consumer.length() > 200 || !consumer.strip().equals(consumer)) {
      throw new IllegalStateException(
          where + " needs a consumer of 1 to 200 characters without surrounding blanks");
    }
    Class<?>[] parameters = method.getParameterTypes();
    if (parameters.length < 1
        || parameters.length > 2
        || (parameters.length == 2 && parameters[1] != EventMetadata.class)) {
      throw new IllegalStateException(
          where + " must take an @OnceEvent record, and optionally an EventMetadata after it");
    }
    EventType event;
    try {
      event = EventType.of(parameters[0]);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(where + ": " + e.getMessage(), e);
    }
    return new ListenerMethod(beanName, method, event, consumer, parameters.length == 2, batch);
  }

  @Override
  public String toString() {
    return method.getDeclaringClass().getSimpleName()
        + "."
        + method.getName()
        + "("
        + event.recordType().getSimpleName()
        + ") of bean "
        + beanName;
  }
}
