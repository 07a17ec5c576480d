package dev.once.spring.events;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Fails the start if a bean, as created, has {@link OnceListener} methods that {@link
 * OnceListenerRegistrar} did not register: a bean defined after the auto-configurations were read,
 * or one whose declared type hides the methods (a {@code @Bean} method returning an interface).
 * Such a listener would otherwise never be called, without a word.
 */
final class UnregisteredListeners implements SmartInitializingSingleton {
  private final ConfigurableListableBeanFactory beans;

  UnregisteredListeners(ConfigurableListableBeanFactory beans) {
    this.beans = beans;
  }

  @Override
  public void afterSingletonsInstantiated() {
    Set<String> registered = new HashSet<>();
    beans
        .getBeansOfType(TypedInboxConsumer.class, false, false)
        .values()
        .forEach(
            consumer ->
                consumer.listeners().values().forEach(l -> registered.add(key(l.beanName(), l))));
    List<String> missing = new ArrayList<>();
    for (String name : beans.getBeanDefinitionNames()) {
      BeanDefinition definition = beans.getBeanDefinition(name);
      if (definition.isAbstract()
          || !definition.isSingleton()
          || definition.isLazyInit()
          || definition.getRole() == BeanDefinition.ROLE_INFRASTRUCTURE
          || name.startsWith(OnceListenerRegistrar.BEAN_PREFIX)) {
        continue;
      }
      Class<?> type = beans.getType(name, false);
      if (type == null) {
        continue;
      }
      for (ListenerMethod listener : ListenerMethod.of(name, ClassUtils.getUserClass(type))) {
        if (!registered.contains(key(name, listener))) {
          missing.add(listener.toString());
        }
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "@OnceListener methods that Once did not register, so they would never be called: "
              + missing
              + ". Define their beans in the application's own configuration or component scan,"
              + " with the bean's class (not an interface) as the declared type.");
    }
  }

  private static String key(String beanName, ListenerMethod listener) {
    return beanName + "#" + listener.method().toGenericString();
  }
}
