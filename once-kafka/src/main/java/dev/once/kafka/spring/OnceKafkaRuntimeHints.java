package dev.once.kafka.spring;

import org.apache.kafka.clients.consumer.Consumer;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What once-kafka makes at run time that a native image must be told about, registered in {@code
 * META-INF/spring/aot.factories}: the JDK proxy of {@link Consumer} that flushes the database's
 * write-ahead log before offsets are committed ({@link DurableOffsets}), which invokes the wrapped
 * consumer's methods reflectively.
 */
final class OnceKafkaRuntimeHints implements RuntimeHintsRegistrar {

  @Override
  public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
    hints.proxies().registerJdkProxy(Consumer.class);
    hints.reflection().registerType(Consumer.class, MemberCategory.INVOKE_PUBLIC_METHODS);
  }
}
