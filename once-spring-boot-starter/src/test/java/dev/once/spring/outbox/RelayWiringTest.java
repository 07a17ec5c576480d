package dev.once.spring.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.events.InProcessEventTransport;
import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxRecord;
import dev.once.outbox.OutboxRelay;
import dev.once.spring.BoundProperties;
import dev.once.spring.OnceAutoConfigurations;
import dev.once.spring.OnceProperties;
import dev.once.testing.TestDatabase;
import java.sql.Connection;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** When a relay is built, and what stops the start before it touches the database. */
class RelayWiringTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              OnceAutoConfigurations.with(
                  DataSourceAutoConfiguration.class,
                  DataSourceTransactionManagerAutoConfiguration.class))
          .withPropertyValues(
              "spring.datasource.url=" + TestDatabase.jdbcUrl(),
              "spring.datasource.username=postgres",
              "spring.datasource.password=postgres");

  @Test
  void withoutHandlersAndConsumersNoRelayIsBuilt() {
    runner.run(
        context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(OutboxRelay.class);
          assertThat(context).doesNotHaveBean(OutboxRelayLifecycle.class);
          assertThat(context).doesNotHaveBean(InProcessEventTransport.class);
          assertThat(context).hasSingleBean(Inbox.class);
          assertThat(context).hasBean("onceInboxPurger");
        });
  }

  @Test
  void publishedEventTypesAloneGetARelayThatDeliversTheirRowsToNobody() {
    runner
        .withPropertyValues("once.outbox.events=thing.happened, other.happened")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(OutboxRelay.class);
              assertThat(context.getBean(InProcessEventTransport.class).types())
                  .containsExactlyInAnyOrder("thing.happened", "other.happened");
              OutboxRecord row =
                  new OutboxRecord(
                      1, UUID.randomUUID(), "thing.happened", "a", "{}", 1, Instant.now());
              assertThat(context.getBean(InProcessEventTransport.class).handle(row))
                  .isEqualTo(Delivery.done());
            });
  }

  @Test
  void theRelayAndTheInboxPurgeCanBeSwitchedOff() {
    runner
        .withUserConfiguration(OutboxTestApplication.class)
        .withPropertyValues("once.outbox.relay.enabled=false", "once.inbox.purge.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(OutboxRelay.class);
              assertThat(context).doesNotHaveBean("onceInboxPurger");
              assertThat(context).hasSingleBean(InProcessEventTransport.class);
            });
  }

  @Test
  void aTypeWithBothAHandlerAndConsumersStopsTheStart() {
    runner
        .withBean("chargeHandler", OutboxHandler.class, () -> handler("order.placed"))
        .withBean("stockConsumer", InboxConsumer.class, () -> consumer("reserve-stock"))
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("'order.placed'")
                    .hasMessageContaining("'chargeHandler'"));
  }

  @Test
  void twoConsumersWithOneNameStopTheStart() {
    runner
        .withBean("a", InboxConsumer.class, () -> consumer("reserve-stock"))
        .withBean("b", InboxConsumer.class, () -> consumer("reserve-stock"))
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("'reserve-stock'"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "once.outbox.relay.workers=0",
        "once.outbox.relay.poll-interval=1ms",
        "once.outbox.relay.retry.jitter=1.5",
        "once.outbox.relay.types[payment.succeeded].max-attempts=0",
        "once.inbox.retention=1m",
        "once.inbox.purge.interval=0s"
      })
  void aBadValueStopsTheStartNamingTheProperty(String property) {
    String name = property.substring(0, property.indexOf('='));
    runner
        .withPropertyValues(property)
        .run(
            context ->
                assertThat(BoundProperties.report(context.getStartupFailure()))
                    .contains(name + ": must"));
  }

  @Test
  void typeNamesWithDotsBindInBrackets() {
    runner
        .withPropertyValues(
            "once.outbox.relay.types[payment.succeeded].max-attempts=3",
            "once.outbox.relay.types[payment.succeeded].initial-delay=250ms")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              OnceProperties.Retry retry =
                  context
                      .getBean(OnceProperties.class)
                      .outbox()
                      .relay()
                      .types()
                      .get("payment.succeeded");
              assertThat(retry.maxAttempts()).isEqualTo(3);
              assertThat(retry.jitter()).isNull();
            });
  }

  private static OutboxHandler handler(String type) {
    return new OutboxHandler() {
      @Override
      public String type() {
        return type;
      }

      @Override
      public Delivery handle(dev.once.outbox.OutboxRecord message) {
        return Delivery.done();
      }
    };
  }

  private static InboxConsumer consumer(String name) {
    return new InboxConsumer() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Set<String> types() {
        return Set.of("order.placed");
      }

      @Override
      public void consume(Connection tx, InboxMessage message) {}
    };
  }
}
