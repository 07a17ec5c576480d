package dev.once.spring.jpa;

import dev.once.spring.events.EventMetadata;
import dev.once.spring.events.OnceEvents;
import dev.once.spring.events.OnceListener;
import dev.once.spring.jpa.OrderEvents.OrderPlaced;
import dev.once.spring.web.IdempotencyClientResolver;
import dev.once.spring.web.Idempotent;
import dev.once.testing.TestDatabase;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * An application on Spring Data JPA and Hibernate, with Boot's JpaTransactionManager on the one
 * DataSource: an idempotent endpoint that saves an order through a repository and publishes an
 * event through the outbox, and a typed event listener that saves a reservation through a
 * repository. The handler and the consumer write nothing through JDBC themselves.
 */
@SpringBootApplication
public class JpaTestApplication {

  /** Points the application at the test JVM's embedded PostgreSQL. */
  static void database(DynamicPropertyRegistry registry) {
    registry.add("spring.datasource.url", TestDatabase::jdbcUrl);
    registry.add("spring.datasource.username", () -> "postgres");
    registry.add("spring.datasource.password", () -> "postgres");
  }

  /** Orders above this quantity are refused by the domain check, after they were saved. */
  static final int IN_STOCK = 10;

  /** Stands in for the application's authentication: the X-Client header names the client. */
  @Bean
  IdempotencyClientResolver clientFromHeader() {
    return request -> Optional.ofNullable(request.getHeader("X-Client"));
  }

  @Bean
  OrderEvents orderEvents(OnceEvents events) {
    return new OrderEvents(events);
  }

  @Bean
  ReserveStock reserveStock(StockReservations reservations) {
    return new ReserveStock(reservations);
  }

  /** What the tests observe of, and change in, the handler's run, per tag. */
  static final class Hooks {
    /** Counted down by the handler once it saved and published; it then waits for RELEASE. */
    static final Map<String, CountDownLatch> ENTERED = new ConcurrentHashMap<>();

    static final Map<String, CountDownLatch> RELEASE = new ConcurrentHashMap<>();

    /** Tags whose next run throws after saving and publishing. */
    static final Set<String> FAIL_ONCE = ConcurrentHashMap.newKeySet();

    /** How many runs of the handler returned an answer. */
    static final Map<String, AtomicInteger> RETURNED = new ConcurrentHashMap<>();

    /** {@code txid_current()} that the handler read through JdbcTemplate. */
    static final Map<String, Long> TXID = new ConcurrentHashMap<>();

    private Hooks() {}

    static int returned(String tag) {
      AtomicInteger count = RETURNED.get(tag);
      return count == null ? 0 : count.get();
    }
  }

  /** The domain's refusal. */
  static final class OutOfStock extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutOfStock(int quantity) {
      super("only " + IN_STOCK + " in stock, " + quantity + " ordered");
    }
  }

  @RestControllerAdvice
  static class Advice {
    @ExceptionHandler(OutOfStock.class)
    ResponseEntity<ProblemDetail> outOfStock(OutOfStock e) {
      return ResponseEntity.unprocessableEntity()
          .body(ProblemDetail.forStatusAndDetail(HttpStatus.UNPROCESSABLE_CONTENT, e.getMessage()));
    }
  }

  @RestController
  static class Orders {
    private final PlacedOrders orders;
    private final OrderEvents events;
    private final JdbcTemplate jdbc;

    Orders(PlacedOrders orders, OrderEvents events, JdbcTemplate jdbc) {
      this.orders = orders;
      this.events = events;
      this.jdbc = jdbc;
    }

    /**
     * Saves an order (flushed at once, or with {@code flush=false} left for the commit's flush),
     * publishes its event, then checks the stock: too large an order is refused 422 with the order
     * and the event written. A flushed order whose reference is taken is refused 422 too.
     */
    @Idempotent
    @PostMapping("/jpa/orders/{tag}")
    ResponseEntity<String> place(
        @PathVariable String tag,
        @RequestParam String ref,
        @RequestParam(defaultValue = "1") int quantity,
        @RequestParam(defaultValue = "true") boolean flush)
        throws InterruptedException {
      PlacedOrder order = new PlacedOrder(ref, tag, quantity);
      if (flush) {
        try {
          orders.saveAndFlush(order);
        } catch (DataIntegrityViolationException e) {
          // Flushed in the handler, the duplicate reference is the client's error, answered as one.
          return ResponseEntity.unprocessableEntity()
              .contentType(MediaType.APPLICATION_JSON)
              .body("{\"error\":\"duplicate-reference\",\"ref\":\"" + ref + "\"}");
        }
      } else {
        orders.save(order);
      }
      events.placed(order);
      if (quantity > IN_STOCK) {
        throw new OutOfStock(quantity);
      }
      CountDownLatch entered = Hooks.ENTERED.get(tag);
      if (entered != null) {
        entered.countDown();
        Hooks.RELEASE.get(tag).await(50, TimeUnit.SECONDS);
      }
      if (Hooks.FAIL_ONCE.remove(tag)) {
        throw new IllegalStateException("failed after saving the order");
      }
      Hooks.TXID.put(tag, jdbc.queryForObject("SELECT txid_current()", Long.class));
      Hooks.RETURNED.computeIfAbsent(tag, t -> new AtomicInteger()).incrementAndGet();
      return ResponseEntity.status(HttpStatus.CREATED)
          .contentType(MediaType.APPLICATION_JSON)
          .header("Location", "/jpa/orders/" + order.getId())
          .body("{\"id\":\"" + order.getId() + "\",\"ref\":\"" + ref + "\"}");
    }
  }

  /**
   * Reserves stock for each placed order, through a repository: a typed listener, run in the
   * transaction of its inbox record. An event with {@code fail} throws after the reservation was
   * flushed to the database.
   */
  static class ReserveStock {
    static final String NAME = "jpa-reserve-stock";

    private final StockReservations reservations;

    ReserveStock(StockReservations reservations) {
      this.reservations = reservations;
    }

    @OnceListener(consumer = NAME)
    void on(OrderPlaced order, EventMetadata event) {
      StockReservation reservation = new StockReservation(event.messageId(), event.aggregateId());
      if (order.fail()) {
        reservations.saveAndFlush(reservation);
        throw new IllegalStateException("stock service down");
      }
      reservations.save(reservation);
    }
  }
}
