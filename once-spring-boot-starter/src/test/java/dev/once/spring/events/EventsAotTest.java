package dev.once.spring.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.spring.OnceProperties;
import dev.once.spring.codec.PriceSet;
import dev.once.spring.events.TypedEventsApplication.ItemAdded;
import dev.once.spring.events.TypedEventsApplication.ItemRemoved;
import dev.once.spring.events.TypedEventsApplication.Stock;
import java.sql.Connection;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GeneratedFiles.Kind;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.context.annotation.AnnotationConfigUtils;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.util.ReflectionUtils;

/**
 * Spring AOT processes an application with {@code @OnceListener} methods (issue 39): the consumer
 * beans are written out as code (no instance supplier), the listener methods and the event records
 * get their reflection hints, and the published event types are the names the build found, made
 * without a scan.
 */
class EventsAotTest {

  @Test
  void anApplicationWithListenersIsProcessedAheadOfTime() throws java.io.IOException {
    InMemoryGeneratedFiles files = new InMemoryGeneratedFiles();
    DefaultGenerationContext generation =
        new DefaultGenerationContext(
            new ClassNameGenerator(ClassName.get("com.example", "AotTest")), files);

    assertThatCode(() -> process(generation)).doesNotThrowAnyException();
    generation.writeGeneratedContent();

    RuntimeHints hints = generation.getRuntimeHints();
    assertThat(
            RuntimeHintsPredicates.reflection()
                .onMethodInvocation(
                    ReflectionUtils.findMethod(
                        Stock.class, "on", ItemAdded.class, EventMetadata.class)))
        .accepts(hints);
    assertThat(
            RuntimeHintsPredicates.reflection()
                .onMethodInvocation(
                    ReflectionUtils.findMethod(Stock.class, "on", ItemRemoved.class)))
        .accepts(hints);
    // Jackson binds the records: their canonical constructors and accessors
    assertThat(
            RuntimeHintsPredicates.reflection()
                .onConstructorInvocation(ItemAdded.class.getDeclaredConstructors()[0]))
        .accepts(hints);
    assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ItemAdded.class, "quantity"))
        .accepts(hints);
    assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ItemRemoved.class, "itemId"))
        .accepts(hints);
    // a record the scan found that no listener takes: Jackson writes it when it is published
    assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(PriceSet.class, "cents"))
        .accepts(hints);
    // the tracing looks up consumeAll on each batch consumer's class
    assertThat(RuntimeHintsPredicates.reflection().onType(TypedInboxConsumer.Batching.class))
        .accepts(hints);
    assertThat(RuntimeHintsPredicates.reflection().onType(OwnBatches.class)).accepts(hints);

    StringBuilder all = new StringBuilder();
    for (String path : files.getGeneratedFiles(Kind.SOURCE).keySet()) {
      all.append(files.getGeneratedFileContent(Kind.SOURCE, path)).append('\n');
    }
    assertThat(all.toString())
        .as("the consumer bean is its factory method with names as arguments")
        .contains("forFactoryMethod(TypedInboxConsumer.class, \"ofBeans\"")
        .contains("\"typed-stock\"");
    assertThat(all.toString())
        .as("the published types are the names found at build time, not a scan at run time")
        .containsPattern(
            "PublishedEventTypes\\.of\\(List\\.of\\([^)]*\"test\\.item\\.added\", \"test\\.item"
                + "\\.removed\"")
        .contains("\"test.price.set\"");
  }

  /** A batch consumer of the application's own, which overrides consumeAll. */
  static final class OwnBatches implements BatchInboxConsumer {
    @Override
    public String name() {
      return "own-batches";
    }

    @Override
    public Set<String> types() {
      return Set.of("test.own");
    }

    @Override
    public void consume(Connection tx, InboxMessage message) {}

    @Override
    public void consumeAll(Connection tx, List<InboxMessage> messages) {}
  }

  private static void process(DefaultGenerationContext generation) {
    try (GenericApplicationContext context = new GenericApplicationContext()) {
      AnnotationConfigUtils.registerAnnotationConfigProcessors(context);
      AutoConfigurationPackages.register(
          context, TypedEventsApplication.class.getPackageName(), PriceSet.class.getPackageName());
      context.registerBeanDefinition("stock", new RootBeanDefinition(Stock.class));
      context.registerBeanDefinition("batches", new RootBeanDefinition(OwnBatches.class));
      // The auto-configuration's condition: the application's DataSource and Once's properties
      // (which the core auto-configuration registers).
      context.registerBeanDefinition(
          "dataSource", new RootBeanDefinition(DriverManagerDataSource.class));
      RootBeanDefinition properties = new RootBeanDefinition(OnceProperties.class);
      properties.setFactoryMethodName("defaults");
      context.registerBeanDefinition("onceProperties", properties);
      context.registerBeanDefinition(
          OnceEventsAutoConfiguration.class.getName(),
          new RootBeanDefinition(OnceEventsAutoConfiguration.class));
      new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
    }
  }

  @Test
  void theListenersOfAConsumerAreFoundAgainFromItsBeanNames() {
    try (GenericApplicationContext context = new GenericApplicationContext()) {
      RootBeanDefinition stock = new RootBeanDefinition(Stock.class);
      stock.setLazyInit(true); // not made: only its type is read
      context.registerBeanDefinition("stock", stock);
      context.refresh();
      TypedInboxConsumer consumer =
          TypedInboxConsumer.ofBeans(
              TypedEventsApplication.CONSUMER,
              List.of("stock"),
              context.getBeanFactory(),
              context.getBeanFactory().getBeanProvider(EventCodec.class));
      assertThat(consumer).isInstanceOf(TypedInboxConsumer.Batching.class);
      assertThat(consumer.types())
          .containsExactlyInAnyOrder(
              TypedEventsApplication.ITEM_ADDED, TypedEventsApplication.ITEM_REMOVED);
    }
  }
}
