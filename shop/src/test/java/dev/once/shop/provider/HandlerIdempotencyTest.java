package dev.once.shop.provider;

import static dev.once.test.OnceAssertions.assertThatHandler;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.outbox.Completion;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxRecord;
import dev.once.psp.PspSimulator;
import dev.once.shop.payments.PaymentService;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import dev.once.spring.outbox.OutboxHandler;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The provider handlers through once-test's handler assertion, against the in-process PSP simulator
 * (the relay is off: the kit calls the handlers itself): the first call charges (refunds) at the
 * provider and settles the payment (refund); a call whose completion is lost (the provider applied
 * it, the settlement did not commit) followed by the relay's retry charges once in all; and a call
 * after the row was done charges nothing more.
 *
 * <p>Each scenario gets a fresh payment (refund) of its own, made over HTTP, and its real outbox
 * row. The probe is the provider's outside effect: the charges (refunds) the simulator applied for
 * the references the test made, whatever the shop recorded.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HandlerIdempotencyTest extends ShopIntegrationTest {
  @Autowired private PspSimulator provider;
  @Autowired private List<OutboxHandler> handlers;

  /** The payments (refunds) the test made: the provider's references to sum the effects of. */
  private final List<String> references = new CopyOnWriteArrayList<>();

  private TestClient client;
  private String account;

  @BeforeEach
  void clientWithMoney() {
    client = newClient();
    account = client.openAccountWith("EUR", "1000");
  }

  @Test
  void aChargeIsAppliedAtTheProviderOnce() {
    assertThatHandler(handler(PaymentService.PROVIDER_CHARGE))
        .isIdempotent(
            () -> {
              String payment = client.pay(account, "1.00", "EUR").text("id");
              references.add(payment);
              return row(PaymentService.PROVIDER_CHARGE, "paymentId", payment);
            },
            this::effects);

    // The shop recorded each answer once too: every payment succeeded, each charged once.
    assertThat(references).hasSize(3).allSatisfy(p -> assertThat(status(p)).isEqualTo("succeeded"));
    assertThat(client.balance(account)).isEqualTo("997.0000");
  }

  @Test
  void aRefundIsAppliedAtTheProviderOnce() {
    assertThatHandler(handler(PaymentService.PROVIDER_REFUND))
        .isIdempotent(
            () -> {
              String refund = refundOfACharge();
              references.add(refund);
              return row(PaymentService.PROVIDER_REFUND, "refundId", refund);
            },
            this::effects);

    // Each 2.00 payment refunded 1.00, credited once.
    assertThat(references).hasSize(3);
    assertThat(client.balance(account)).isEqualTo("997.0000");
  }

  private String status(String payment) {
    return client.get("/v1/payments/" + payment).text("status");
  }

  /** A payment charged at the provider and settled, then a refund of it asked for: its id. */
  private String refundOfACharge() {
    String payment = client.pay(account, "2.00", "EUR").text("id");
    Delivery charged;
    try {
      charged =
          handler(PaymentService.PROVIDER_CHARGE)
              .handle(row(PaymentService.PROVIDER_CHARGE, "paymentId", payment), Completion.NONE);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    assertThat(charged).as("the charge of %s", payment).isEqualTo(Delivery.done());
    return client
        .post("/v1/payments/" + payment + "/refunds", "{\"amount\":\"1.00\"}")
        .assertStatus(201)
        .text("id");
  }

  private OutboxHandler handler(String type) {
    return handlers.stream()
        .filter(h -> h.type().equals(type))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no handler of " + type));
  }

  /** The charges or refunds the provider applied for the test's references. */
  private long effects() {
    return references.stream().mapToLong(r -> provider.stats(r).effects()).sum();
  }

  /** The outbox row of {@code type} whose payload's {@code member} is {@code id}, as claimed. */
  private OutboxRecord row(String type, String member, String id) {
    return jdbc.sql(
            """
            SELECT id, message_id, aggregate_id, payload::text AS payload, created_at
            FROM once.outbox WHERE type = :type AND payload ->> :member = :id
            """)
        .param("type", type)
        .param("member", member)
        .param("id", id)
        .query(
            (rs, n) ->
                new OutboxRecord(
                    rs.getLong("id"),
                    rs.getObject("message_id", UUID.class),
                    type,
                    rs.getString("aggregate_id"),
                    rs.getString("payload"),
                    1,
                    rs.getObject("created_at", OffsetDateTime.class).toInstant()))
        .single();
  }
}
