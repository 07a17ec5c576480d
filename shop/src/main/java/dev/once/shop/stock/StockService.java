package dev.once.shop.stock;

import dev.once.shop.events.ShopEvents;
import dev.once.shop.events.ShopEvents.Line;
import dev.once.shop.events.ShopEvents.OrderCancelled;
import dev.once.shop.events.ShopEvents.OrderPlaced;
import dev.once.shop.events.ShopEvents.StockOutcome;
import dev.once.shop.persistence.Timestamps;
import dev.once.shop.problems.NotFoundException;
import dev.once.shop.problems.ShopProblem;
import dev.once.spring.events.OnceEvents;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Products and their stock. Stock never goes negative (the product's CHECK backs every statement),
 * and for every product {@code available + reserved = initial stock + restocks} in every committed
 * state. Reservations are facts keyed by {@code (order, sku)}: reserving an order twice, or
 * releasing it twice, changes the stock once. Thread-safe; concurrent changes serialize on the
 * products' row locks, always taken at the start of the transaction, all in one statement, in
 * ascending (client, sku) order, whether it applies one order or a batch ({@link StockRepository}).
 */
@Service
public class StockService {
  private final StockRepository stock;
  private final OnceEvents events;
  private final JsonMapper json;
  private final Clock clock;

  StockService(StockRepository stock, OnceEvents events, JsonMapper json, Clock clock) {
    this.stock = stock;
    this.events = events;
    this.json = json;
    this.clock = clock;
  }

  /**
   * Creates a product with {@code units} available.
   *
   * @throws ProductExistsException if the client has a product with this sku
   */
  @Transactional
  public Product create(
      String client, String sku, String name, BigDecimal price, String currency, long units) {
    return stock
        .create(client, sku, name, price, currency, units, Timestamps.now(clock))
        .orElseThrow(() -> new ProductExistsException(sku));
  }

  /**
   * The client's product.
   *
   * @throws NotFoundException {@code product-not-found}, also for another client's product and for
   *     a malformed sku
   */
  public Product get(String client, String sku) {
    if (!Sku.isWellFormed(sku)) {
      throw productNotFound();
    }
    return stock.find(client, sku).orElseThrow(StockService::productNotFound);
  }

  /** The client's products among {@code skus}, by sku; unknown skus are absent. */
  public Map<String, Product> products(String client, Collection<String> skus) {
    if (skus.isEmpty()) {
      return Map.of();
    }
    return stock.findAll(client, skus).stream()
        .collect(Collectors.toMap(Product::sku, Function.identity()));
  }

  /**
   * Adds {@code units} to the product's available stock.
   *
   * @throws NotFoundException {@code product-not-found}
   */
  @Transactional
  public Product restock(String client, String sku, long units) {
    if (!Sku.isWellFormed(sku)) {
      throw productNotFound();
    }
    return stock
        .restock(client, sku, units, Timestamps.now(clock))
        .orElseThrow(StockService::productNotFound);
  }

  /**
   * Reserves every line of an order, or none, and publishes the outcome ({@value
   * ShopEvents#STOCK_RESERVED} or {@value ShopEvents#STOCK_REJECTED}) in the same transaction. If
   * the order was decided before (a repeated event), the decision is published again and the stock
   * does not move; if it was cancelled before its lines were reserved, nothing happens.
   *
   * @return the outcome, or empty if the order was cancelled first
   */
  @Transactional
  public Optional<StockOutcome> reserve(String client, String orderId, List<Line> lines) {
    String linesJson = json.writeValueAsString(lines);
    // Lock, then read, in two statements. A statement that waits for the products' locks sees
    // other rows as they were before it waited (READ COMMITTED): a reservation or release of this
    // order committed meanwhile (a concurrent copy of the event) would be missed, and a second
    // decision published that contradicts the first. Once the locks are held no other decision
    // on this order can commit, so the read after them sees the final state.
    stock.lockForOrder(client, linesJson);
    return reserveLocked(client, orderId, lines, linesJson);
  }

  /**
   * Reserves a batch of placed orders in one transaction, with the effect of {@link #reserve} for
   * each of them in turn, in the order given: each order all or none, each outcome published as
   * {@link #reserve} publishes it, a later order seeing the units an earlier one took (and a second
   * copy of an order in the batch seeing the first one's decision).
   *
   * <p>Set-based, so its cost is linear in the batch, whatever its size: the products of the whole
   * batch are locked and read first, each once, in one statement and in ascending (client, sku)
   * order ({@link StockRepository#LOCK_PRODUCTS}), the batch's reservations read in a second; the
   * orders are then decided in memory against those units, and every decision is written in a third
   * statement that inserts the reservation rows and moves each product's units once ({@link
   * StockRepository#WRITE_RESERVATIONS}), and the outcomes are published in a fourth ({@link
   * OnceEvents#publishAll}): the products stay locked for four statements whatever the batch's
   * size. Updating a product once per order instead leaves a chain of row versions in the
   * transaction that every later statement on that product walks (quadratic in the batch). Locking
   * per order, even in sku order, could deadlock against a concurrent batch (one order of a batch
   * locks k1 and k3, a later one k2, while another batch's first order locks k2 and k5, its next
   * one k1).
   *
   * @return the outcomes, in the order of {@code orders}; empty for an order cancelled first
   */
  @Transactional
  public List<Optional<StockOutcome>> reserveAll(List<OrderPlaced> orders) {
    Map<StockRepository.ProductKey, Long> available =
        lockProducts(orders.stream().map(order -> new Locking(order.clientId(), order.items())));
    Map<String, Map<String, String>> reservations =
        stock.reservations(orders.stream().map(OrderPlaced::orderId).distinct().toList());
    List<StockRepository.Reservation> writes = new ArrayList<>();
    List<Optional<StockOutcome>> outcomes = new ArrayList<>(orders.size());
    for (OrderPlaced order : orders) {
      Map<String, String> states =
          reservations.computeIfAbsent(order.orderId(), id -> new HashMap<>());
      List<StockRepository.LockedLine> locked = new ArrayList<>();
      for (Line line : order.items()) {
        Long units = available.get(new StockRepository.ProductKey(order.clientId(), line.sku()));
        if (units != null) {
          locked.add(
              new StockRepository.LockedLine(
                  line.sku(), line.quantity(), units, Optional.ofNullable(states.get(line.sku()))));
        }
      }
      Optional<StockOutcome> outcome;
      if (locked.stream().anyMatch(line -> line.reservation().isPresent())) {
        outcome = decidedBefore(order.orderId(), order.items(), locked);
      } else {
        List<String> shortSkus = shortSkus(order.items(), locked);
        String state = shortSkus.isEmpty() ? "held" : "rejected";
        for (StockRepository.LockedLine line : locked) {
          writes.add(
              new StockRepository.Reservation(
                  order.orderId(), order.clientId(), line.sku(), line.quantity(), state));
          states.put(line.sku(), state);
          if (shortSkus.isEmpty()) {
            available.merge(
                new StockRepository.ProductKey(order.clientId(), line.sku()),
                -line.quantity(),
                Long::sum);
          }
        }
        outcome = Optional.of(StockOutcome.of(order.orderId(), shortSkus.isEmpty(), shortSkus));
      }
      outcomes.add(outcome);
    }
    if (!writes.isEmpty()) {
      stock.writeReservations(json.writeValueAsString(writes), Timestamps.now(clock));
    }
    events.publishAll(outcomes.stream().flatMap(Optional::stream).toList(), StockOutcome::orderId);
    return outcomes;
  }

  /** {@link #reserve} once the order's products are locked. */
  private Optional<StockOutcome> reserveLocked(
      String client, String orderId, List<Line> lines, String linesJson) {
    List<StockRepository.LockedLine> locked = stock.lines(client, orderId, linesJson);
    Optional<StockOutcome> outcome;
    if (locked.stream().anyMatch(line -> line.reservation().isPresent())) {
      outcome = decidedBefore(orderId, lines, locked);
    } else {
      List<String> shortSkus = shortSkus(lines, locked);
      if (shortSkus.isEmpty()) {
        stock.hold(client, orderId, linesJson, Timestamps.now(clock));
      } else {
        stock.reject(client, orderId, linesJson, Timestamps.now(clock));
      }
      outcome = Optional.of(StockOutcome.of(orderId, shortSkus.isEmpty(), shortSkus));
    }
    outcome.ifPresent(this::publish);
    return outcome;
  }

  /**
   * Gives back the units an order holds, once, and makes sure a reservation that has not happened
   * yet never will.
   *
   * @return the skus whose units went back (empty if nothing was held, or it was released before)
   */
  @Transactional
  public List<String> release(String client, String orderId, List<Line> lines) {
    String linesJson = json.writeValueAsString(lines);
    stock.lockForOrder(client, linesJson);
    return stock.release(client, orderId, linesJson, Timestamps.now(clock));
  }

  /**
   * Releases a batch of cancelled orders in one transaction, with the effect of {@link #release}
   * for each in turn, in the order given. Set-based as {@link #reserveAll} is: the batch's products
   * are locked first, each once, in ascending (client, sku) order, the batch's reservations read in
   * one statement, each order's lines decided in memory (a held line is released, a line with no
   * reservation gets a {@code void} one so that a late placement reserves nothing, any other is
   * left as it is), and every decision written in one statement that gives each product's units
   * back once ({@link StockRepository#WRITE_RELEASES}).
   *
   * @return per order, in the order of {@code orders}, the skus whose units went back, in sku order
   */
  @Transactional
  public List<List<String>> releaseAll(List<OrderCancelled> orders) {
    Map<StockRepository.ProductKey, Long> products =
        lockProducts(orders.stream().map(order -> new Locking(order.clientId(), order.items())));
    Map<String, Map<String, String>> reservations =
        stock.reservations(orders.stream().map(OrderCancelled::orderId).distinct().toList());
    List<StockRepository.Reservation> writes = new ArrayList<>();
    List<List<String>> released = new ArrayList<>(orders.size());
    for (OrderCancelled order : orders) {
      Map<String, String> states =
          reservations.computeIfAbsent(order.orderId(), id -> new HashMap<>());
      List<String> back = new ArrayList<>();
      for (Line line : order.items()) {
        if (!products.containsKey(new StockRepository.ProductKey(order.clientId(), line.sku()))) {
          continue; // no such product: nothing to release, no row to write
        }
        String state = states.get(line.sku());
        String next = state == null ? "void" : state.equals("held") ? "released" : null;
        if (next != null) {
          writes.add(
              new StockRepository.Reservation(
                  order.orderId(), order.clientId(), line.sku(), line.quantity(), next));
          states.put(line.sku(), next);
          if (next.equals("released")) {
            back.add(line.sku());
          }
        }
      }
      back.sort(null);
      released.add(back);
    }
    if (!writes.isEmpty()) {
      stock.writeReleases(json.writeValueAsString(writes), Timestamps.now(clock));
    }
    return released;
  }

  /**
   * Locks the products of {@code orders}, each once, in one statement and one global order.
   *
   * @return the units available of each locked product (a product that does not exist is absent)
   */
  private Map<StockRepository.ProductKey, Long> lockProducts(Stream<Locking> orders) {
    Set<Map<String, String>> products = new LinkedHashSet<>();
    orders.forEach(
        order ->
            order
                .lines()
                .forEach(
                    line -> products.add(Map.of("client", order.client(), "sku", line.sku()))));
    if (products.isEmpty()) {
      return new HashMap<>();
    }
    return stock.lockProducts(json.writeValueAsString(products));
  }

  /** The lines of one order of a batch, with its client. */
  private record Locking(String client, List<Line> lines) {}

  /** The outcome an earlier delivery decided, read from the order's reservation rows. */
  private static Optional<StockOutcome> decidedBefore(
      String orderId, List<Line> lines, List<StockRepository.LockedLine> locked) {
    List<String> states =
        locked.stream().map(line -> line.reservation().orElse("none")).distinct().toList();
    if (states.equals(List.of("held")) && locked.size() == lines.size()) {
      return Optional.of(StockOutcome.of(orderId, true, List.of()));
    }
    if (states.contains("rejected")) {
      return Optional.of(StockOutcome.of(orderId, false, shortSkus(lines, locked)));
    }
    return Optional.empty(); // released or void: the order was cancelled
  }

  /** The skus of lines that have no product, or fewer units available than they need. */
  private static List<String> shortSkus(List<Line> lines, List<StockRepository.LockedLine> locked) {
    Map<String, StockRepository.LockedLine> bySku =
        locked.stream()
            .collect(Collectors.toMap(StockRepository.LockedLine::sku, Function.identity()));
    return lines.stream()
        .filter(
            line -> {
              StockRepository.LockedLine product = bySku.get(line.sku());
              return product == null || product.available() < line.quantity();
            })
        .map(Line::sku)
        .sorted()
        .toList();
  }

  private void publish(StockOutcome outcome) {
    events.publish(outcome.orderId(), outcome);
  }

  static NotFoundException productNotFound() {
    return new NotFoundException(
        ShopProblem.PRODUCT_NOT_FOUND, "No product with this sku exists for this client.");
  }
}
