package dev.once.outbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;

/**
 * The relay's rows in flight and the heartbeat that keeps their lease: every row from its claim
 * until its attempt ends (or the relay gives it up, or its handler times out) is here, and {@link
 * #renew()}, run every third of the lease on the relay's timer, extends the lease of each that is
 * still running, in one statement. A row the relay leaves without an outcome keeps its lease and is
 * claimed again once it runs out. Thread-safe: the coordinator boards rows, workers and time-outs
 * take them off, the timer renews.
 */
final class Heartbeat {
  private final Set<Flight> flights = ConcurrentHashMap.newKeySet();
  private final OutboxStore store;
  private final Duration lease;
  private final RelayCounters counters;
  private final RelayFailures failures;
  private final String name;
  private final Logger log;

  Heartbeat(
      OutboxStore store,
      Duration lease,
      RelayCounters counters,
      RelayFailures failures,
      String name,
      Logger log) {
    this.store = store;
    this.lease = lease;
    this.counters = counters;
    this.failures = failures;
    this.name = name;
    this.log = log;
  }

  /** Rows just claimed: renewed from now on, also while they wait for a worker. */
  void board(Collection<Flight> claimed) {
    flights.addAll(claimed);
  }

  /** A row whose attempt ended, was abandoned or timed out: no longer renewed. */
  void leave(Flight flight) {
    flights.remove(flight);
  }

  /** Extends the lease of every row whose handler still runs; never throws. */
  void renew() {
    try {
      List<Flight> running = new ArrayList<>(flights.size());
      for (Flight flight : flights) {
        if (flight.running()) {
          running.add(flight);
        }
      }
      if (running.isEmpty()) {
        return;
      }
      HeldRows held = HeldRows.of(running);
      store.renew(held.ids(), held.claimIds(), lease);
      counters.commits.increment();
    } catch (RuntimeException e) {
      failures.report("renew the lease of outbox rows", e);
    } catch (Throwable e) {
      log.error("Outbox relay {}: its heartbeat failed unexpectedly.", name, e);
    }
  }
}
