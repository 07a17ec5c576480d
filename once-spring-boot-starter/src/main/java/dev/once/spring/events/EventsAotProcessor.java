package dev.once.spring.events;

import dev.once.inbox.BatchInboxConsumer;
import java.lang.reflect.Executable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.springframework.aot.generate.GenerationContext;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.aot.BeanRegistrationCode;
import org.springframework.beans.factory.aot.BeanRegistrationCodeFragments;
import org.springframework.beans.factory.aot.BeanRegistrationCodeFragmentsDecorator;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.ConstructorArgumentValues;
import org.springframework.beans.factory.support.InstanceSupplier;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.javapoet.CodeBlock;

/**
 * What Spring AOT needs to know about typed events, decided at build time ({@code
 * spring-boot:process-aot}), registered in {@code META-INF/spring/aot.factories}:
 *
 * <ul>
 *   <li>the {@code onceListener:<consumer>} beans: their {@link OnceListener} methods, which the
 *       consumer invokes reflectively, and their {@link OnceEvent} records, which Jackson binds;
 *   <li>the starter's {@link PublishedEventTypes} bean: the classpath scan runs here, at build
 *       time, and the generated code makes the bean from the names found ({@link
 *       PublishedEventTypes#of}), so an AOT-processed application never scans; the records found
 *       get the hints Jackson needs to write them;
 *   <li>every {@link BatchInboxConsumer} bean: its public methods, which the tracing looks up
 *       ({@code consumeAll}, overridden or not).
 * </ul>
 */
final class EventsAotProcessor implements BeanRegistrationAotProcessor {
  /** The name of the starter's {@link PublishedEventTypes} bean. */
  static final String PUBLISHED_TYPES_BEAN = "oncePublishedEventTypes";

  @Override
  public BeanRegistrationAotContribution processAheadOfTime(RegisteredBean bean) {
    if (bean.getBeanName().startsWith(OnceListenerRegistrar.BEAN_PREFIX)
        && TypedInboxConsumer.class.isAssignableFrom(bean.getBeanClass())) {
      List<ListenerMethod> listeners = listeners(bean);
      return (generation, code) -> {
        ReflectionHints reflection = generation.getRuntimeHints().reflection();
        registerBatchConsumer(reflection, bean.getBeanClass());
        listeners.forEach(l -> registerListener(reflection, l));
      };
    }
    if (isStartersPublishedTypes(bean)) {
      return new PublishedTypes(scan(bean.getBeanFactory()));
    }
    if (BatchInboxConsumer.class.isAssignableFrom(bean.getBeanClass())) {
      return (generation, code) ->
          registerBatchConsumer(generation.getRuntimeHints().reflection(), bean.getBeanClass());
    }
    return null;
  }

  /** The listener methods of an {@code onceListener:} bean, from its definition's arguments. */
  static List<ListenerMethod> listeners(RegisteredBean bean) {
    ConstructorArgumentValues arguments =
        bean.getMergedBeanDefinition().getConstructorArgumentValues();
    ConstructorArgumentValues.ValueHolder consumer = arguments.getIndexedArgumentValue(0, null);
    ConstructorArgumentValues.ValueHolder beanNames = arguments.getIndexedArgumentValue(1, null);
    if (consumer == null
        || !(consumer.getValue() instanceof String name)
        || beanNames == null
        || !(beanNames.getValue() instanceof Collection<?> names)) {
      return List.of();
    }
    List<String> onBeans = new ArrayList<>();
    names.forEach(n -> onBeans.add(String.valueOf(n)));
    Map<String, ListenerMethod> byType =
        ListenerMethod.byConsumer(ListenerMethod.onBeans(bean.getBeanFactory(), onBeans)).get(name);
    return byType == null ? List.of() : List.copyOf(byType.values());
  }

  /** A listener method, invoked reflectively, and its event record, bound by Jackson. */
  static void registerListener(ReflectionHints reflection, ListenerMethod listener) {
    reflection.registerMethod(listener.method(), ExecutableMode.INVOKE);
    registerEvent(reflection, listener.event());
  }

  /** An event record, written and read by Jackson: its accessors and canonical constructor. */
  static void registerEvent(ReflectionHints reflection, EventType event) {
    new BindingReflectionHintsRegistrar().registerReflectionHints(reflection, event.recordType());
  }

  private static void registerBatchConsumer(ReflectionHints reflection, Class<?> type) {
    if (BatchInboxConsumer.class.isAssignableFrom(type)) {
      reflection.registerType(type, MemberCategory.INTROSPECT_PUBLIC_METHODS);
    }
  }

  private static boolean isStartersPublishedTypes(RegisteredBean bean) {
    if (!PUBLISHED_TYPES_BEAN.equals(bean.getBeanName())
        || !PublishedEventTypes.class.equals(bean.getBeanClass())) {
      return false;
    }
    Executable factory = bean.resolveInstantiationDescriptor().executable();
    return factory.getDeclaringClass() == OnceEventsAutoConfiguration.class;
  }

  /** The scan of the starter's {@link PublishedEventTypes} bean, at build time. */
  static List<EventType> scan(ConfigurableListableBeanFactory beans) {
    List<String> packages =
        AutoConfigurationPackages.has(beans) ? AutoConfigurationPackages.get(beans) : List.of();
    Environment environment = beans.getBeanProvider(Environment.class).getIfAvailable();
    return PublishedEventTypes.scanTypes(
        packages,
        environment != null ? environment : new StandardEnvironment(),
        new DefaultResourceLoader(beans.getBeanClassLoader()));
  }

  /**
   * The {@link PublishedEventTypes} bean as the names found at build time: generated code that
   * calls {@link PublishedEventTypes#of} with them instead of the {@code @Bean} method that scans.
   */
  private static final class PublishedTypes implements BeanRegistrationAotContribution {
    private final List<EventType> types;

    PublishedTypes(List<EventType> types) {
      this.types = types;
    }

    @Override
    public void applyTo(GenerationContext generation, BeanRegistrationCode code) {
      ReflectionHints reflection = generation.getRuntimeHints().reflection();
      types.forEach(type -> registerEvent(reflection, type));
    }

    @Override
    public BeanRegistrationCodeFragments customizeBeanRegistrationCodeFragments(
        GenerationContext generation, BeanRegistrationCodeFragments fragments) {
      return new BeanRegistrationCodeFragmentsDecorator(fragments) {
        @Override
        public CodeBlock generateInstanceSupplierCode(
            GenerationContext generation,
            BeanRegistrationCode code,
            boolean allowDirectSupplierShortcut) {
          CodeBlock names =
              CodeBlock.join(
                  types.stream().map(type -> CodeBlock.of("$S", type.name())).toList(), ", ");
          return CodeBlock.of(
              "$T.<$T>using(() -> $T.of($T.of($L)))",
              InstanceSupplier.class,
              PublishedEventTypes.class,
              PublishedEventTypes.class,
              List.class,
              names);
        }
      };
    }
  }
}
