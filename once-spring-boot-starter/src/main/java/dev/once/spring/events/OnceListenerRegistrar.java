package dev.once.spring.events;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.ConstructorArgumentValues;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Finds the {@link OnceListener} methods on the beans defined so far (the application's own
 * configuration and component scan are read before any auto-configuration) and registers one {@link
 * dev.once.inbox.InboxConsumer} bean, {@code onceListener:<consumer>}, per consumer name. It runs
 * while the auto-configurations are read, before the starter's inbox and relay check for {@code
 * InboxConsumer} beans, so typed listeners count as consumers everywhere: the in-process transport,
 * the relay's condition, {@code TransactionalOutbox.publish}'s "is it consumed", and {@code
 * once-kafka}'s listener containers and topics.
 *
 * <p>Each definition is the static factory method {@link TypedInboxConsumer#ofBeans} with the
 * consumer's name and its listener beans' names as arguments (the rest autowired), never an
 * instance supplier: Spring AOT writes such a definition out as code, and an AOT-processed
 * application, which does not run this registrar again, starts from it.
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
    Map<String, Map<String, ListenerMethod>> consumers =
        ListenerMethod.byConsumer(ListenerMethod.onBeans(beans, candidates(registry)));
    consumers.forEach((name, byType) -> register(registry, name, byType));
  }

  private static List<String> candidates(BeanDefinitionRegistry registry) {
    List<String> names = new ArrayList<>();
    for (String name : registry.getBeanDefinitionNames()) {
      BeanDefinition definition = registry.getBeanDefinition(name);
      if (!definition.isAbstract()
          && definition.getRole() != BeanDefinition.ROLE_INFRASTRUCTURE
          && !name.startsWith(BEAN_PREFIX)) {
        names.add(name);
      }
    }
    return names;
  }

  private static void register(
      BeanDefinitionRegistry registry, String consumer, Map<String, ListenerMethod> byType) {
    List<String> beanNames =
        byType.values().stream().map(ListenerMethod::beanName).distinct().sorted().toList();
    boolean batch = byType.values().stream().allMatch(ListenerMethod::batch);
    RootBeanDefinition definition = new RootBeanDefinition(TypedInboxConsumer.class);
    definition.setFactoryMethodName("ofBeans");
    definition.setAutowireMode(AbstractBeanDefinition.AUTOWIRE_CONSTRUCTOR);
    ConstructorArgumentValues arguments = definition.getConstructorArgumentValues();
    arguments.addIndexedArgumentValue(0, consumer);
    arguments.addIndexedArgumentValue(1, beanNames);
    definition.setTargetType(batch ? TypedInboxConsumer.Batching.class : TypedInboxConsumer.class);
    definition.setDescription("@OnceListener methods of consumer " + consumer);
    registry.registerBeanDefinition(BEAN_PREFIX + consumer, definition);
  }
}
