package dev.once.shop.payments;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The legal transitions of the payment state machine, and nothing else. */
class PaymentStatusTest {
  @Test
  void pendingMovesToEitherOutcome() {
    assertThat(PaymentStatus.PENDING.canTransitionTo(PaymentStatus.SUCCEEDED)).isTrue();
    assertThat(PaymentStatus.PENDING.canTransitionTo(PaymentStatus.FAILED)).isTrue();
    assertThat(PaymentStatus.PENDING.canTransitionTo(PaymentStatus.PENDING)).isFalse();
  }

  @Test
  void outcomesAreFinal() {
    for (PaymentStatus from : new PaymentStatus[] {PaymentStatus.SUCCEEDED, PaymentStatus.FAILED}) {
      assertThat(from.isTerminal()).isTrue();
      for (PaymentStatus to : PaymentStatus.values()) {
        assertThat(from.canTransitionTo(to)).as("%s -> %s", from, to).isFalse();
      }
    }
  }

  @Test
  void wireNamesRoundTrip() {
    for (PaymentStatus status : PaymentStatus.values()) {
      assertThat(PaymentStatus.fromWireName(status.wireName())).isEqualTo(status);
    }
    assertThat(PaymentStatus.SUCCEEDED.wireName()).isEqualTo("succeeded");
  }
}
