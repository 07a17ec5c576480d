package dev.once.verify.chaos;

import dev.once.verify.network.FaultProxy;
import dev.once.verify.network.Network;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code chaos --network-faults P}: the workload cut into {@link #SLOT slots} of 5 s, of which P %
 * (a seeded draw each) hold one network fault on one shop's route to one dependency (PostgreSQL,
 * the provider, and with Kafka the broker), for 1 to 4 s from a seeded point in the slot's first
 * half; then that route heals. Each shop reaches each dependency through a {@link FaultProxy} of
 * its own ({@link Network}), so a fault cuts off one shop while the others still get through. The
 * same seed gives the same plan.
 */
final class NetworkFaults implements Runnable {
  /** One slot of the plan. */
  static final Duration SLOT = Duration.ofSeconds(5);

  /** The dependencies a shop's routes lead to (a route's name is {@code shop-N->dependency…}). */
  static final List<String> DEPENDENCIES = List.of("postgres", "provider");

  /** With Kafka, the broker too. */
  static final List<String> WITH_BROKER = List.of("postgres", "provider", "broker");

  /** What a fault does to a route. */
  enum Kind {
    /** New connections reset as soon as they are accepted; open ones go on. */
    REFUSE,
    /** Every open connection reset at the fault's start (an RST); new ones go on. */
    RESET,
    /** A partition: connections accepted, nothing forwarded either way, nothing closed. */
    BLACKHOLE,
    /** 20 ms plus up to 80 ms of seeded jitter on every chunk, each way. */
    LATENCY
  }

  /**
   * One fault.
   *
   * @param at time since the workload started
   * @param length how long until the route heals
   * @param shop the shop's index
   * @param dependency one of {@link #DEPENDENCIES}
   * @param kind what it does
   */
  record Fault(Duration at, Duration length, int shop, String dependency, Kind kind) {
    String describe() {
      return String.format(
          Locale.ROOT,
          "%s of shop %d's route to %s for %.1fs",
          kind.name().toLowerCase(Locale.ROOT),
          shop + 1,
          dependency,
          length.toMillis() / 1e3);
    }
  }

  /**
   * The seeded plan: {@code percent} % of the slots of {@code duration} hold a fault on a route to
   * one of {@code dependencies}.
   */
  static List<Fault> plan(
      long seed, int percent, int shops, List<String> dependencies, Duration duration) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x6e6574L);
    List<Fault> faults = new ArrayList<>();
    long slot = SLOT.toMillis();
    for (long start = 0; start + slot <= duration.toMillis(); start += slot) {
      boolean hit = random.nextInt(100) < percent;
      long at = start + random.nextLong(slot / 2);
      long length = 1_000 + random.nextLong(3_001);
      int shop = random.nextInt(shops);
      String dependency = dependencies.get(random.nextInt(dependencies.size()));
      Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
      if (hit) {
        faults.add(
            new Fault(
                Duration.ofMillis(at),
                Duration.ofMillis(Math.min(length, start + slot - at)),
                shop,
                dependency,
                kind));
      }
    }
    return List.copyOf(faults);
  }

  private final List<Fault> plan;
  private final Network network;
  private final PrintStream out;
  private final long seed;
  private final long start;
  private final long deadline;
  private final Map<Kind, Integer> done = new EnumMap<>(Kind.class);

  NetworkFaults(
      List<Fault> plan, Network network, PrintStream out, long seed, long start, long deadline) {
    this.plan = plan;
    this.network = network;
    this.out = out;
    this.seed = seed;
    this.start = start;
    this.deadline = deadline;
  }

  @Override
  public void run() {
    try {
      for (Fault f : plan) {
        Schedule.sleepUntil(start + f.at().toNanos());
        if (System.nanoTime() >= deadline) {
          break;
        }
        List<FaultProxy> routes = routes(f);
        for (FaultProxy route : routes) {
          apply(route, f.kind());
        }
        synchronized (done) {
          done.merge(f.kind(), 1, Integer::sum);
        }
        out.printf(
            Locale.ROOT,
            "  [%5.1fs] network: %s%n",
            (System.nanoTime() - start) / 1e9,
            f.describe());
        Schedule.sleepUntil(start + f.at().plus(f.length()).toNanos());
        routes.forEach(FaultProxy::heal);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      network.heal(); // the system must get quiet with every route open
    }
  }

  /** Every proxy of the fault's shop to its dependency (with a standby: one per server). */
  private List<FaultProxy> routes(Fault f) {
    String prefix = Processes.shopName(f.shop()) + "->" + f.dependency();
    return network.routes().stream().filter(r -> r.name().startsWith(prefix)).toList();
  }

  private void apply(FaultProxy route, Kind kind) {
    switch (kind) {
      case REFUSE -> route.refuse();
      case RESET -> route.resetAll();
      case BLACKHOLE -> route.blackhole();
      case LATENCY -> route.latency(Duration.ofMillis(20), Duration.ofMillis(80), seed);
    }
  }

  /** The plan and what was done, for the report. */
  Map<String, Object> facts() {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("network faults planned", plan.size());
    synchronized (done) {
      for (Kind k : Kind.values()) {
        facts.put(
            "network faults done: " + k.name().toLowerCase(Locale.ROOT), done.getOrDefault(k, 0));
      }
    }
    facts.put(
        "network faults",
        plan.stream().map(f -> f.at().toMillis() + " ms " + f.describe()).toList());
    return facts;
  }
}
