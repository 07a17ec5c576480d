package dev.once.kafka.spring;

import dev.once.kafka.OnceHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.header.Header;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Every record the application's inbox listeners received, by message id, in the order they
 * received them (applied or absorbed by the inbox, or failed at): what proves a redelivery
 * happened. A record handed over behind one that failed is not received until a call gets to it
 * ({@link ProcessedRecords}). Add {@link Config} to a context to have one.
 */
final class RecordLog {
  final List<UUID> received = new CopyOnWriteArrayList<>();

  /** How many times {@code id} was received. */
  long times(UUID id) {
    return received.stream().filter(id::equals).count();
  }

  @Configuration(proxyBeanMethods = false)
  static class Config {
    @Bean
    RecordLog recordLog() {
      return new RecordLog();
    }

    @Bean
    InboxListenerCustomizer recordLogging(RecordLog log) {
      return (consumer, container) ->
          container.setBatchInterceptor(
              new ProcessedRecords(
                  record -> {
                    Header id = record.headers().lastHeader(OnceHeaders.MESSAGE_ID);
                    if (id != null) {
                      log.received.add(
                          UUID.fromString(new String(id.value(), StandardCharsets.UTF_8)));
                    }
                  }));
    }
  }
}
