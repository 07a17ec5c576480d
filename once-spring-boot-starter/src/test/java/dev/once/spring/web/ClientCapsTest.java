package dev.once.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The caps' arithmetic, on a clock the test moves: in flight, the token bucket, and memory. */
class ClientCapsTest {
  private final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T12:00:00Z"));

  @Test
  void aClientGetsAtMostItsCapInFlightAndAnotherClientIsNotCounted() {
    ClientCaps caps = new ClientCaps(2, 0, Duration.ofSeconds(3), clock);
    ClientCaps.Admitted first = admitted(caps.admit("a"));
    admitted(caps.admit("a"));

    assertThat(caps.admit("a"))
        .isEqualTo(new ClientCaps.Refused(OnceProblem.TOO_MANY_IN_FLIGHT, 3));
    admitted(caps.admit("b"));

    first.close();
    first.close(); // closing twice frees one slot, not two
    admitted(caps.admit("a"));
    assertThat(caps.admit("a")).isInstanceOf(ClientCaps.Refused.class);
  }

  @Test
  void newKeysRefillEvenlyOverAMinuteAndAKeyThatWasNotNewGivesItsTokenBack() {
    ClientCaps caps = new ClientCaps(0, 3, Duration.ofSeconds(1), clock);
    ClientCaps.Admitted replay = admitted(caps.admit("a"));
    replay.notNew();
    replay.close();
    for (int i = 0; i < 3; i++) {
      admitted(caps.admit("a")).close();
    }

    assertThat(caps.admit("a"))
        .isEqualTo(new ClientCaps.Refused(OnceProblem.TOO_MANY_NEW_KEYS, 20));
    clock.advance(Duration.ofSeconds(15));
    assertThat(caps.admit("a")).isEqualTo(new ClientCaps.Refused(OnceProblem.TOO_MANY_NEW_KEYS, 5));
    clock.advance(Duration.ofSeconds(5));
    admitted(caps.admit("a")).close();
    assertThat(caps.admit("a")).isInstanceOf(ClientCaps.Refused.class);
    admitted(caps.admit("b")).close();
  }

  @Test
  void aClockThatStepsBackRefillsNothing() {
    ClientCaps caps = new ClientCaps(0, 1, Duration.ofSeconds(1), clock);
    admitted(caps.admit("a")).close();
    clock.advance(Duration.ofMinutes(-10));
    assertThat(caps.admit("a")).isInstanceOf(ClientCaps.Refused.class);
    clock.advance(Duration.ofMinutes(10).plusSeconds(60));
    admitted(caps.admit("a")).close();
  }

  @Test
  void aClientIsForgottenOnceNothingOfItIsInFlightAndItsBucketIsFull() {
    ClientCaps caps = new ClientCaps(5, 60, Duration.ofSeconds(1), clock);
    List<ClientCaps.Admitted> running = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      running.add(admitted(caps.admit("client-" + i)));
    }
    assertThat(caps.tracked()).isEqualTo(1000);
    running.forEach(ClientCaps.Admitted::close);
    assertThat(caps.tracked()).as("buckets not yet full").isEqualTo(1000);

    clock.advance(Duration.ofSeconds(1));
    ClientCaps.Admitted last = admitted(caps.admit("client-0"));
    last.notNew();
    last.close();
    assertThat(caps.tracked()).as("found idle by its own request").isEqualTo(999);
    caps.sweep();
    assertThat(caps.tracked()).isZero();
  }

  @Test
  void noCapsAdmitEverythingAndKeepNothing() {
    ClientCaps caps = ClientCaps.none();
    assertThat(caps.enabled()).isFalse();
    for (int i = 0; i < 100; i++) {
      admitted(caps.admit("a"));
    }
    assertThat(caps.tracked()).isZero();
  }

  private static ClientCaps.Admitted admitted(ClientCaps.Admission admission) {
    assertThat(admission).isInstanceOf(ClientCaps.Admitted.class);
    return (ClientCaps.Admitted) admission;
  }
}
