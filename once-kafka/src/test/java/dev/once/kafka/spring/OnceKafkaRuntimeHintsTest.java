package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.consumer.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

/** once-kafka's runtime hints, as {@code META-INF/spring/aot.factories} registers them. */
class OnceKafkaRuntimeHintsTest {

  @Test
  void theDurableOffsetsProxyAndTheMethodsItInvokes() throws NoSuchMethodException {
    RuntimeHints hints = new RuntimeHints();
    SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
        .load(RuntimeHintsRegistrar.class)
        .forEach(registrar -> registrar.registerHints(hints, getClass().getClassLoader()));

    assertThat(RuntimeHintsPredicates.proxies().forInterfaces(Consumer.class)).accepts(hints);
    assertThat(
            RuntimeHintsPredicates.reflection()
                .onMethodInvocation(Consumer.class.getMethod("commitSync")))
        .accepts(hints);
    assertThat(
            RuntimeHintsPredicates.reflection()
                .onMethodInvocation(Consumer.class.getMethod("poll", java.time.Duration.class)))
        .accepts(hints);
  }
}
