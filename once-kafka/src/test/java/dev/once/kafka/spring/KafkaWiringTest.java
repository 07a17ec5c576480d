package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.spring.OnceAutoConfiguration;
import dev.once.spring.inbox.OnceInboxAutoConfiguration;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.annotation.Configurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.util.StringUtils;

/**
 * once-kafka's auto-configuration comes before every auto-configuration of the starter (issue 41,
 * item 2): the inbox's in-process transport steps aside for its publisher ({@code
 * ConditionalOnMissingBean(EventTransport.class)}), which it can only if this one's beans are
 * defined first; and the tests load every auto-configuration of the starter.
 */
class KafkaWiringTest {
  private static final String KAFKA = OnceKafkaAutoConfiguration.class.getName();

  @Test
  void theTestsLoadEveryAutoConfigurationOfTheStarter() {
    assertThat(OnceAutoConfigurations.STARTER)
        .contains(OnceAutoConfiguration.class, OnceInboxAutoConfiguration.class);
    assertThat(TransportApps.App.class.getAnnotation(ImportAutoConfiguration.class).value())
        .contains(OnceAutoConfigurations.ALL.toArray(Class<?>[]::new));
  }

  /** Declared: read from the metadata Spring Boot's sorter reads. */
  @Test
  void itIsDeclaredBeforeTheCoreAndTheInbox() throws IOException {
    Properties metadata =
        PropertiesLoaderUtils.loadAllProperties(
            "META-INF/spring-autoconfigure-metadata.properties");
    assertThat(
            StringUtils.commaDelimitedListToSet(
                metadata.getProperty(KAFKA + ".AutoConfigureBefore")))
        .contains(
            OnceAutoConfiguration.class.getName(), OnceInboxAutoConfiguration.class.getName());
    assertThat(
            StringUtils.commaDelimitedListToSet(
                metadata.getProperty(KAFKA + ".AutoConfigureAfter")))
        .contains(KafkaAutoConfiguration.class.getName());
  }

  /** And so sorted, before every auto-configuration of the starter. */
  @Test
  void itIsSortedBeforeEveryAutoConfigurationOfTheStarter() {
    List<Class<?>> given = new ArrayList<>(OnceAutoConfigurations.STARTER);
    given.add(KafkaAutoConfiguration.class);
    given.add(OnceKafkaAutoConfiguration.class);
    List<Class<?>> sorted =
        List.of(Configurations.getClasses(AutoConfigurations.of(given.toArray(Class<?>[]::new))));
    int kafka = sorted.indexOf(OnceKafkaAutoConfiguration.class);
    assertThat(sorted.indexOf(KafkaAutoConfiguration.class)).isLessThan(kafka);
    assertThat(OnceAutoConfigurations.STARTER)
        .allSatisfy(
            type -> assertThat(sorted.indexOf(type)).as(type.getName()).isGreaterThan(kafka));
  }
}
