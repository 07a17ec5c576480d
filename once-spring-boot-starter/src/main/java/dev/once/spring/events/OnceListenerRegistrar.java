package dev.once.spring.events;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.ClassUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * Finds the {@link OnceListener} methods on the beans defined so far (the application's own
 * configuration and component scan are read before any auto-configuration) and registers one {@link
 * dev.once.inbox.InboxConsumer} bean, {@code onceListener:<consumer>}, per consumer name. It runs
 * while the auto-configurations are read, before the starter's inbox and relay check for {@code
 * InboxConsumer} beans, so typed listeners count as consumers everywhere: the in-process transport,
 * the relay's condition, {@code TransactionalOutbox.publish}'s "is it consumed", and {@code
 * once-kafka}'s listener containers and topics.
 *
 * <p>Fails the start ({@link IllegalStateException}) if a listener method has the wrong shape, or
 * if two methods of one consumer take the same event type.
 */
final class OnceListenerRegistrar implements ImportBeanDefinitionRegistrar {
  /** The prefix of the registered consumers' bean names. */
  static final String BEAN_PREFIX = "onceListener:";

  @Override
  public void registerBeanDefinitions(
      AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
    if (!(registry instanceof ConfigurableListableBeanFactory beans)) {
      return;
    }
    Map<String, Map<String, ListenerMethod>> consumers = new TreeMap<>();
    for (ListenerMethod listener : listeners(registry, beans)) {
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
    consumers.forEach((name, byType) -> register(registry, beans, name, byType));
  }

  private static List<ListenerMethod> listeners(
      BeanDefinitionRegistry registry, ConfigurableListableBeanFactory beans) {
    List<ListenerMethod> listeners = new ArrayList<>();
    for (String name : registry.getBeanDefinitionNames()) {
      BeanDefinition definition = registry.getBeanDefinition(name);
      if (definition.isAbstract()
          || definition.getRole() == BeanDefinition.ROLE_INFRASTRUCTURE
          || name.startsWith(BEAN_PREFIX)) {
        continue;
      }
      Class<?> type;
      try {
        type = beans.getType(name, false);
      } catch (RuntimeException e) {
        continue; // a type that cannot be predicted yet: not a listener bean of the application
      }
      if (type != null) {
        listeners.addAll(ListenerMethod.of(name, ClassUtils.getUserClass(type)));
      }
    }
    return listeners;
  }

  private static void register(
      BeanDefinitionRegistry registry,
      BeanFactory beans,
      String consumer,
      Map<String, ListenerMethod> byType) {
    SingletonSupplier<EventCodec> codec =
        SingletonSupplier.of(() -> beans.getBean(EventCodec.class));
    RootBeanDefinition definition =
        new RootBeanDefinition(
            TypedInboxConsumer.class, () -> TypedInboxConsumer.of(consumer, byType, beans, codec));
    definition.setDescription("@OnceListener methods of consumer " + consumer);
    registry.registerBeanDefinition(BEAN_PREFIX + consumer, definition);
  }
}
