package dev.once.shop.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.shop.problems.ShopProblem;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The order's state machine rules, for every status, without a database. */
class OrderTest {
  private static final String PAYMENT = "pay_this";
  private static final String OTHER = "pay_other";

  @Test
  void markPaidMovesOnlyAReservedOrderWaitingForThisPayment() {
    assertThat(order(OrderStatus.RESERVED, PAYMENT).markPaid(PAYMENT)).isTrue();
  }

  @Test
  void markPaidIsANoOpWhenAlreadyPaidByThisPayment() {
    assertThat(order(OrderStatus.PAID, PAYMENT).markPaid(PAYMENT)).isFalse();
  }

  @Test
  void markPaidRefusesEveryOtherStateAndPayment() {
    for (OrderStatus status : OrderStatus.values()) {
      for (String pending : new String[] {null, PAYMENT, OTHER}) {
        boolean allowed =
            PAYMENT.equals(pending)
                && (status == OrderStatus.RESERVED || status == OrderStatus.PAID);
        if (!allowed) {
          Order order = order(status, pending);
          assertThatThrownBy(() -> order.markPaid(PAYMENT))
              .as("%s with payment %s", status, pending)
              .isInstanceOfSatisfying(InvalidOrderStateException.class, e -> refused(e, status));
        }
      }
    }
  }

  @Test
  void checkPayableAllowsOnlyAReservedOrderWithNoPaymentPending() {
    order(OrderStatus.RESERVED, null).checkPayable();
    for (OrderStatus status : OrderStatus.values()) {
      for (String pending : new String[] {null, PAYMENT}) {
        if (status == OrderStatus.RESERVED && pending == null) {
          continue;
        }
        Order order = order(status, pending);
        assertThatThrownBy(order::checkPayable)
            .as("%s with payment %s", status, pending)
            .isInstanceOfSatisfying(InvalidOrderStateException.class, e -> refused(e, status));
      }
    }
  }

  @Test
  void checkCancellableByStatus() {
    assertThat(order(OrderStatus.PLACED, null).checkCancellable()).isFalse();
    assertThat(order(OrderStatus.RESERVED, null).checkCancellable()).isFalse();
    assertThat(order(OrderStatus.PAID, PAYMENT).checkCancellable()).as("refund").isTrue();
    for (Order refused :
        List.of(
            order(OrderStatus.RESERVED, PAYMENT),
            order(OrderStatus.REJECTED, null),
            order(OrderStatus.CANCELLED, null),
            order(OrderStatus.CANCELLED, PAYMENT))) {
      assertThatThrownBy(refused::checkCancellable)
          .as("%s with payment %s", refused.status(), refused.paymentId())
          .isInstanceOfSatisfying(
              InvalidOrderStateException.class, e -> refused(e, refused.status()));
    }
  }

  private static void refused(InvalidOrderStateException e, OrderStatus status) {
    assertThat(e.status()).isEqualTo(status);
    assertThat(e.problem()).isEqualTo(ShopProblem.INVALID_ORDER_STATE);
    assertThat(e.getStatusCode().value()).isEqualTo(422);
    assertThat(e.getBody().getDetail()).contains("ord_1", "is " + status.wireName());
  }

  private static Order order(OrderStatus status, String payment) {
    return new Order(
        "ord_1",
        "acc_1",
        status,
        List.of(new Order.Item("A", 1, BigDecimal.ONE)),
        BigDecimal.ONE,
        "EUR",
        Optional.ofNullable(payment),
        Optional.empty(),
        Instant.EPOCH,
        Optional.empty());
  }
}
