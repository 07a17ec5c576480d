package dev.once.spring.web;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.once.idempotency.Fingerprint;
import dev.once.json.JsonCanonicalizer;
import dev.once.testing.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * A tiny application whose handlers write to the database through JdbcClient, to prove that their
 * writes join the filter's transaction.
 */
@SpringBootApplication
public class FilterTestApplication {

  /** Points the application at the test JVM's embedded PostgreSQL, which once-core's tests use. */
  static void database(DynamicPropertyRegistry registry) {
    registry.add("spring.datasource.url", TestDatabase::jdbcUrl);
    registry.add("spring.datasource.username", () -> "postgres");
    registry.add("spring.datasource.password", () -> "postgres");
  }

  /** Stands in for a filter that reads form parameters before Once (as a CSRF filter does). */
  @Bean
  FilterRegistrationBean<OncePerRequestFilter> parameterReadingFilter() {
    return beforeOnce(
        -5,
        request -> {
          if (request.getRequestURI().startsWith("/api/consumed/")) {
            request.getParameter("amount");
          }
        });
  }

  /** A @Transactional service whose failure marks the request's transaction rollback-only. */
  @Bean
  Inner inner(JdbcClient jdbc) {
    return new Inner(jdbc);
  }

  /** Joins the request's transaction; throwing through it marks that transaction rollback-only. */
  public static class Inner {
    private final JdbcClient jdbc;

    Inner(JdbcClient jdbc) {
      this.jdbc = jdbc;
    }

    @Transactional
    public void failAfterWriting(String tag) {
      jdbc.sql("INSERT INTO effect (tag) VALUES (:tag)").param("tag", tag).update();
      throw new IllegalStateException("inner failure");
    }
  }

  /** A registry, as an application with Micrometer has: Once counts its outcomes in it. */
  @Bean
  SimpleMeterRegistry meterRegistry() {
    return new SimpleMeterRegistry();
  }

  /** Stands in for the application's authentication: the X-Client header names the client. */
  @Bean
  FilterRegistrationBean<OncePerRequestFilter> fakeAuthentication() {
    return beforeOnce(
        -10,
        request -> {
          String client = request.getHeader("X-Client");
          if (client != null) {
            request.setAttribute(IdempotencyClientResolver.CLIENT_ID_ATTRIBUTE, client);
          }
        });
  }

  /** A filter that runs {@code step} on each request before Once's filter (order 0). */
  private static FilterRegistrationBean<OncePerRequestFilter> beforeOnce(
      int order, Consumer<HttpServletRequest> step) {
    FilterRegistrationBean<OncePerRequestFilter> registration =
        new FilterRegistrationBean<>(
            new OncePerRequestFilter() {
              @Override
              protected void doFilterInternal(
                  HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                  throws ServletException, IOException {
                step.accept(request);
                chain.doFilter(request, response);
              }
            });
    registration.setOrder(order);
    return registration;
  }

  /** A functional endpoint that writes and refuses. */
  @Bean
  RouterFunction<ServerResponse> routedRefusal(JdbcClient jdbc) {
    return RouterFunctions.route()
        .POST(
            "/api/routed/{tag}",
            request -> {
              jdbc.sql("INSERT INTO effect (tag) VALUES (:tag)")
                  .param("tag", request.pathVariable("tag"))
                  .update();
              return ServerResponse.unprocessableEntity().body("{\"error\":\"routed\"}");
            })
        .build();
  }

  /** A body with a number in it. */
  record Payment(int amount) {}

  /** A request value that the application's own argument resolver checks, and always refuses. */
  record Checked() {}

  /**
   * The application's own check of a request, before its handler method runs (the shop checks its
   * JSON bodies this way): its refusal is the endpoint's answer, so it is stored.
   */
  @Bean
  WebMvcConfigurer checkedArguments() {
    return new WebMvcConfigurer() {
      @Override
      public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(
            new HandlerMethodArgumentResolver() {
              @Override
              public boolean supportsParameter(MethodParameter parameter) {
                return parameter.getParameterType() == Checked.class;
              }

              @Override
              public Object resolveArgument(
                  MethodParameter parameter,
                  ModelAndViewContainer mav,
                  NativeWebRequest request,
                  WebDataBinderFactory binders) {
                throw new Refusal();
              }
            });
      }
    };
  }

  /** A refusal a handler raises on purpose. */
  static final class Refusal extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refusal() {
      super("refused by the handler");
    }
  }

  /** The application's answers to its own exceptions, as an API's controller advice gives them. */
  @RestControllerAdvice
  static class Advice {
    @ExceptionHandler(Refusal.class)
    ResponseEntity<ProblemDetail> refusal(Refusal e) {
      return ResponseEntity.unprocessableEntity()
          .body(ProblemDetail.forStatusAndDetail(HttpStatus.UNPROCESSABLE_CONTENT, e.getMessage()));
    }
  }

  /** Latches a test can use to hold a handler in the middle of its transaction. */
  public static final Map<String, CountDownLatch> ENTERED = new ConcurrentHashMap<>();

  public static final Map<String, CountDownLatch> RELEASE = new ConcurrentHashMap<>();

  /** The transaction callbacks a synchronization registered by a handler received, per tag. */
  public static final Map<String, List<String>> CALLBACKS = new ConcurrentHashMap<>();

  /**
   * A second pool on the same server, standing in for another DataSource a handler uses: its
   * connections do not join the request's transaction, but Spring binds one to the request's
   * synchronization and releases it when that completes.
   */
  @Bean(destroyMethod = "close")
  SecondPool secondPool(@Value("${spring.datasource.url}") String url) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setUsername("postgres");
    config.setPassword("postgres");
    config.setPoolName("second");
    config.setMaximumPoolSize(2);
    return new SecondPool(new HikariDataSource(config));
  }

  /** Not a DataSource bean, so that Boot still configures the application's own DataSource. */
  public record SecondPool(HikariDataSource dataSource) implements AutoCloseable {
    public int activeConnections() {
      return dataSource.getHikariPoolMXBean().getActiveConnections();
    }

    @Override
    public void close() {
      dataSource.close();
    }
  }

  /** The database backend that served a held handler, so a test can terminate it. */
  public static final Map<String, Integer> BACKEND_PID = new ConcurrentHashMap<>();

  @RestController
  static class Handlers {
    private final JdbcClient jdbc;
    private final Inner inner;
    private final SecondPool secondPool;

    Handlers(JdbcClient jdbc, Inner inner, SecondPool secondPool) {
      this.jdbc = jdbc;
      this.inner = inner;
      this.secondPool = secondPool;
    }

    /**
     * Records an effect, then commits, through the second pool, another request's answer for this
     * very key: what a request that committed in the instant between this claim's read and its lock
     * leaves behind. Then answers {@code status}.
     */
    @PostMapping("/api/raced/{tag}")
    ResponseEntity<String> raced(
        @PathVariable String tag,
        @RequestParam int status,
        @RequestParam(defaultValue = "true") boolean raced,
        @RequestParam(defaultValue = "false") boolean failBeforeCommit,
        @RequestBody String body,
        @RequestHeader("X-Client") String client,
        @RequestHeader("Idempotency-Key") String key,
        HttpServletRequest request) {
      record(tag);
      // A write the handler leaves for the end of the transaction, as a unit of work that flushes
      // before commit does: it must commit or roll back with everything else.
      TransactionSynchronizationManager.registerSynchronization(
          new TransactionSynchronization() {
            @Override
            public void beforeCommit(boolean readOnly) {
              record(tag + "-before-commit");
              if (failBeforeCommit) {
                throw new IllegalStateException("flush failed");
              }
            }
          });
      if (!raced) {
        return ResponseEntity.status(status).body("{\"alone\":true}");
      }
      Fingerprint fingerprint =
          Fingerprint.of(
              "POST",
              request.getRequestURI() + "?" + request.getQueryString(),
              request.getContentType(),
              body.getBytes(StandardCharsets.UTF_8),
              JsonCanonicalizer.create());
      JdbcClient.create(secondPool.dataSource())
          .sql(
              "INSERT INTO once.idempotency_key (client_id, idem_key, fingerprint, state,"
                  + " status_code, content_type, body, created_at, completed_at, expires_at)"
                  + " VALUES (?, ?, ?, 'completed', 201, 'application/json', ?, now(), now(),"
                  + " now() + interval '1 day')")
          .params(client, key, fingerprint.toBytes(), "{\"winner\":true}".getBytes(UTF_8))
          .update();
      return ResponseEntity.status(status)
          .contentType(MediaType.APPLICATION_JSON)
          .header("Location", "/loser")
          .body("{\"loser\":true}");
    }

    @PostMapping("/api/async/{tag}")
    Callable<ResponseEntity<String>> async(@PathVariable String tag) {
      return () -> {
        record(tag);
        return ResponseEntity.status(HttpStatus.CREATED).body("{}");
      };
    }

    /**
     * Writes, uses a connection of the second pool (bound to the request's synchronization, as
     * DataSourceUtils, JdbcTemplate or a second transaction manager's resources are) and registers
     * a synchronization that records every callback it gets.
     */
    @PostMapping("/api/synchronized/{tag}")
    ResponseEntity<String> synchronizedWork(@PathVariable String tag, @RequestParam int status)
        throws SQLException {
      record(tag);
      Connection second = DataSourceUtils.getConnection(secondPool.dataSource());
      try (Statement statement = second.createStatement()) {
        statement.execute("SELECT 1");
      }
      List<String> callbacks = Collections.synchronizedList(new ArrayList<>());
      CALLBACKS.put(tag, callbacks);
      TransactionSynchronizationManager.registerSynchronization(
          new TransactionSynchronization() {
            @Override
            public void savepointRollback(Object savepoint) {
              callbacks.add("savepointRollback");
            }

            @Override
            public void beforeCommit(boolean readOnly) {
              callbacks.add("beforeCommit");
            }

            @Override
            public void beforeCompletion() {
              callbacks.add("beforeCompletion");
            }

            @Override
            public void afterCommit() {
              callbacks.add("afterCommit");
            }

            @Override
            public void afterCompletion(int completion) {
              callbacks.add(
                  completion == STATUS_COMMITTED
                      ? "afterCompletion(committed)"
                      : completion == STATUS_ROLLED_BACK
                          ? "afterCompletion(rolled back)"
                          : "afterCompletion(unknown)");
            }
          });
      return ResponseEntity.status(status).body("{}");
    }

    @PostMapping("/api/see-other/{tag}")
    ResponseEntity<Void> seeOther(@PathVariable String tag) {
      record(tag);
      return ResponseEntity.status(HttpStatus.SEE_OTHER)
          .header("Location", "/api/effects/" + tag)
          .build();
    }

    @PostMapping("/api/redirect/{tag}")
    void redirect(@PathVariable String tag, HttpServletResponse response) throws IOException {
      record(tag);
      response.sendRedirect("/api/effects/" + tag);
    }

    @PostMapping("/api/rollback-only/{tag}")
    ResponseEntity<String> rollbackOnly(@PathVariable String tag) {
      record(tag);
      try {
        inner.failAfterWriting(tag);
      } catch (IllegalStateException swallowed) {
        // The handler carries on, but its transaction can no longer commit.
      }
      return ResponseEntity.status(HttpStatus.CREATED).body("{}");
    }

    @PostMapping(
        path = "/api/consumed/{tag}",
        consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    ResponseEntity<String> consumed(@PathVariable String tag) {
      record(tag);
      return ResponseEntity.status(HttpStatus.CREATED).body("{}");
    }

    private void record(String tag) {
      jdbc.sql("INSERT INTO effect (tag) VALUES (:tag)").param("tag", tag).update();
    }

    @PostMapping(path = "/api/effects/{tag}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> create(
        @PathVariable String tag,
        @RequestBody(required = false) String body,
        @RequestHeader(name = "X-Client", required = false) String client)
        throws InterruptedException {
      record(tag);
      CountDownLatch entered = ENTERED.get(tag);
      if (entered != null) {
        BACKEND_PID.put(tag, jdbc.sql("SELECT pg_backend_pid()").query(Integer.class).single());
        entered.countDown();
        RELEASE.get(tag).await();
      }
      String id = UUID.randomUUID().toString();
      return ResponseEntity.status(HttpStatus.CREATED)
          .header("Location", "/api/effects/" + tag + "/" + id)
          .header("X-Not-Replayed", "yes")
          .body("{\"id\":\"" + id + "\",\"tag\":\"" + tag + "\"}");
    }

    @PostMapping(path = "/api/form/{tag}", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    ResponseEntity<String> form(
        @PathVariable String tag, @RequestParam String amount, @RequestParam String q) {
      record(tag);
      return ResponseEntity.status(HttpStatus.CREATED)
          .body("{\"amount\":\"" + amount + "\",\"q\":\"" + q + "\"}");
    }

    @PostMapping("/api/fail/{tag}")
    String fail(@PathVariable String tag) {
      record(tag);
      throw new IllegalStateException("handler failed after writing");
    }

    @PostMapping("/api/server-error/{tag}")
    ResponseEntity<String> serverError(@PathVariable String tag) {
      record(tag);
      return ResponseEntity.status(503).body("{\"error\":\"later\"}");
    }

    @PostMapping(path = "/api/reject/{tag}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> reject(@PathVariable String tag) {
      record(tag);
      return ResponseEntity.unprocessableEntity().body("{\"error\":\"rejected\"}");
    }

    @PostMapping("/api/send-error/{tag}")
    void sendError(@PathVariable String tag, HttpServletResponse response) throws IOException {
      record(tag);
      // The container writes the body of this answer later, after Once's filter.
      response.sendError(HttpServletResponse.SC_NOT_FOUND, "no such thing");
    }

    /** Spring renders the exception as a problem (spring.mvc.problemdetails.enabled). */
    @PostMapping("/api/not-found/{tag}")
    String notFound(@PathVariable String tag) {
      record(tag);
      throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no such thing");
    }

    /** Never runs: the application's argument resolver refuses every request first. */
    @PostMapping("/api/checked/{tag}")
    String checked(@PathVariable String tag, Checked checked) {
      record(tag);
      return "{}";
    }

    /** Refuses from within, through an exception that the application's advice answers 422. */
    @PostMapping("/api/refuse/{tag}")
    String refuse(@PathVariable String tag) {
      record(tag);
      throw new Refusal();
    }

    /**
     * Spring MVC refuses a request for this handler before calling it when the path variable is not
     * a number, the parameter is missing or the body does not bind to {@link Payment}.
     */
    @PostMapping("/api/typed/{tag}/{number}")
    ResponseEntity<String> typed(
        @PathVariable String tag,
        @PathVariable int number,
        @RequestParam String currency,
        @RequestBody Payment payment) {
      record(tag);
      return ResponseEntity.status(HttpStatus.CREATED).body("{}");
    }

    @PostMapping("/api/too-many/{tag}")
    ResponseEntity<String> tooMany(@PathVariable String tag) {
      record(tag);
      return ResponseEntity.status(429).body("{}");
    }

    @GetMapping("/api/effects/{tag}")
    long count(@PathVariable String tag) {
      return jdbc.sql("SELECT count(*) FROM effect WHERE tag = :tag")
          .param("tag", tag)
          .query(Long.class)
          .single();
    }
  }
}
