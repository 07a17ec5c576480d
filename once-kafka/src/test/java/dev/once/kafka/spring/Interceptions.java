package dev.once.kafka.spring;

import dev.once.inbox.InboxConsumer;
import dev.once.kafka.KafkaTestSupport;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

/**
 * Counts how many times the listener tried each record (every attempt, retries included), by the
 * record's {@code test-case} header: a customizer bean for the tests. The listener is a batch
 * listener: a record counts when a call got to it ({@link ProcessedRecords}), not when it was
 * handed over behind a record that failed.
 */
public final class Interceptions implements InboxListenerCustomizer {
  public static final String CASE = "test-case";
  private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();

  @Override
  public void customize(
      InboxConsumer consumer, ConcurrentMessageListenerContainer<String, String> container) {
    container.setBatchInterceptor(
        new ProcessedRecords(
            record -> {
              String name = KafkaTestSupport.header(record, CASE);
              if (name != null) {
                attempts.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
              }
            }));
  }

  /** How many times the listener was handed the record of {@code name}. */
  public int of(String name) {
    AtomicInteger count = attempts.get(name);
    return count == null ? 0 : count.get();
  }
}
