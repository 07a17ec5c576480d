package dev.once.test.spring;

import static dev.once.test.OnceAssertions.assertThatConsumer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.inbox.InboxMessage;
import dev.once.outbox.OutboxRelay;
import dev.once.test.consumer.ConsumerTarget;
import dev.once.test.spring.ListenerApplication.Reservations;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An application's {@code @OnceListener} consumer, found by name in its context and proved
 * idempotent through the application's own inbox and transactions, on the kit's PostgreSQL.
 */
@SpringBootTest(
    classes = ListenerApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = "once.outbox.relay.auto-start=false")
@Timeout(120)
class OnceTestBeansTest {
  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    TestPostgresProperties.registerDataSource(registry);
  }

  @Autowired ApplicationContext context;
  @Autowired Reservations reservations;
  @Autowired OutboxRelay relay;

  @Test
  void aListenerConsumerFoundByNameIsIdempotent() {
    String item = "item-" + UUID.randomUUID();
    ConsumerTarget target = OnceTestBeans.consumer(context, ListenerApplication.CONSUMER);

    assertThat(target.name()).isEqualTo(ListenerApplication.CONSUMER);
    assertThatConsumer(target)
        .isIdempotent(
            new InboxMessage(
                UUID.randomUUID(), "kit.item.ordered", item, "{\"itemId\":\"" + item + "\"}"),
            () -> reservations.of(item));
  }

  @Test
  void anUnknownNameIsRefusedNamingTheConsumersThereAre() {
    assertThatThrownBy(() -> OnceTestBeans.consumer(context, "nobody"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "the application has no consumer named 'nobody'; its consumers: ["
                + ListenerApplication.CONSUMER
                + "]");
  }

  @Test
  void theRelayIsBuiltButNotStarted() {
    assertThat(relay.isRunning()).isFalse();
  }
}
