package dev.once.test.consumer;

import static dev.once.test.OnceAssertions.assertThatConsumer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.inbox.Transactions;
import dev.once.postgres.PostgresStores;
import dev.once.test.Effect;
import dev.once.test.faults.InjectedFault;
import dev.once.test.fixtures.TestPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The consumer assertion on real consumers over the embedded PostgreSQL: one behind Once's inbox
 * passes; one without the inbox, and one whose effect commits outside the inbox's transaction, fail
 * naming what they did wrong.
 */
@Timeout(120)
class ConsumerAssertTest {
  private static final DataSource DB = TestPostgres.onceDataSource();
  private static final String TYPE = "stock.reserved";

  static {
    try (Connection c = DB.getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS public.kit_effect"
              + " (consumer text NOT NULL, message_id uuid NOT NULL)");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private final String name = "reserve-stock-" + UUID.randomUUID();
  private final Transactions transactions = Transactions.of(DB);
  private final Inbox inbox = Inbox.of(PostgresStores.inboxStore(DB), transactions);
  private final InboxMessage event =
      new InboxMessage(UUID.randomUUID(), TYPE, "order-1", "{\"sku\":\"A\"}");

  /** One row per application of a message, written in {@code tx}. */
  private static void apply(Connection tx, String consumer, UUID messageId) throws SQLException {
    try (PreparedStatement ps =
        tx.prepareStatement("INSERT INTO public.kit_effect (consumer, message_id) VALUES (?, ?)")) {
      ps.setString(1, consumer);
      ps.setObject(2, messageId);
      ps.executeUpdate();
    }
  }

  /** The rows this test's consumer wrote, committed. */
  private Effect effect() {
    return () -> {
      try (Connection c = DB.getConnection();
          PreparedStatement ps =
              c.prepareStatement("SELECT count(*) FROM public.kit_effect WHERE consumer = ?")) {
        ps.setString(1, name);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getLong(1);
        }
      }
    };
  }

  private InboxConsumer consumer(Writer writer) {
    return new InboxConsumer() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Set<String> types() {
        return Set.of(TYPE);
      }

      @Override
      public void consume(Connection tx, InboxMessage message) throws Exception {
        writer.write(tx, message);
      }
    };
  }

  @FunctionalInterface
  private interface Writer {
    void write(Connection tx, InboxMessage message) throws Exception;
  }

  private InboxConsumer inTransaction() {
    return consumer((tx, message) -> apply(tx, name, message.messageId()));
  }

  @Test
  void aConsumerBehindTheInboxIsIdempotent() {
    assertThatConsumer(inbox, inTransaction()).isIdempotent(event, effect());
  }

  @Test
  void aConsumerBehindTheInboxIsIdempotentWithAFreshEventPerScenario() {
    assertThatConsumer(ConsumerTarget.throughInbox(inbox, inTransaction()))
        .concurrency(4)
        .isIdempotent(
            () ->
                new InboxMessage(
                    UUID.randomUUID(), TYPE, "order-" + UUID.randomUUID(), "{\"sku\":\"B\"}"),
            effect());
  }

  @Test
  void aConsumerWithoutTheInboxFailsEveryRedeliveryScenario() {
    InboxConsumer consumer = inTransaction();
    ConsumerTarget withoutInbox =
        new ConsumerTarget() {
          @Override
          public String name() {
            return name;
          }

          @Override
          public void deliver(InboxMessage message) throws Exception {
            transactions.inTransaction(
                tx -> {
                  consumer.consume(tx, message);
                  return null;
                });
          }

          @Override
          public void deliverFailingMidEffect(InboxMessage message) throws Exception {
            transactions.inTransaction(
                tx -> {
                  consumer.consume(tx, message);
                  throw new InjectedFault("after the effect");
                });
          }
        };

    assertThatThrownBy(() -> assertThatConsumer(withoutInbox).isIdempotent(event, effect()))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("Consumer " + name + " is not idempotent:\n - [")
        .hasMessageContaining(
            "[delivered-twice] delivering one message twice moved the effect by 2, expected 1")
        .hasMessageContaining("[delivered-three-times]")
        .hasMessageContaining("[delivered-concurrently] 8 concurrent deliveries")
        .hasMessageContaining(
            "[out-of-order] delivering two messages as B, A, A, B moved the effect by 4, expected 2")
        .hasMessageNotContaining("[first-delivery-applies]")
        .hasMessageNotContaining("[rollback-mid-effect]");
  }

  @Test
  void aConsumerWhoseEffectCommitsOutsideTheInboxTransactionFailsTheRollbackScenario() {
    InboxConsumer ownTransaction =
        consumer(
            (tx, message) -> {
              try (Connection own = DB.getConnection()) { // auto-commit: commits at once
                apply(own, name, message.messageId());
              }
            });

    assertThatThrownBy(
            () -> assertThatConsumer(inbox, ownTransaction).isIdempotent(event, effect()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(
            "[rollback-mid-effect] a delivery whose transaction failed after the consumer's effect"
                + " still moved the effect by 1")
        .satisfies(e -> assertThat(e.getMessage().lines()).hasSize(2))
        .hasMessageNotContaining("[delivered-twice]")
        .hasMessageNotContaining("[delivered-concurrently]");
  }

  @Test
  void aConsumerTheProbeCannotSeeFailsTheFirstDeliveryAndStops() {
    InboxConsumer nothing = consumer((tx, message) -> {});

    assertThatThrownBy(() -> assertThatConsumer(inbox, nothing).isIdempotent(event, effect()))
        .isInstanceOf(AssertionError.class)
        .satisfies(
            e ->
                assertThat(e.getMessage().lines().toList())
                    .hasSize(2)
                    .last()
                    .asString()
                    .startsWith(" - [first-delivery-applies] the first delivery"));
  }
}
