package dev.once.test.http;

import dev.once.spring.web.IdempotencyClientResolver;
import dev.once.spring.web.Idempotent;
import dev.once.testing.TestDatabase;
import jakarta.servlet.Filter;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * An application with one correct endpoint on Once's starter and endpoints broken in the ways the
 * kit must catch: each inserts a row tagged with its path variable into {@code effect}, the probe
 * counts them.
 */
@SpringBootApplication
public class EndpointTestApplication {

  /** Points the application at the test JVM's embedded PostgreSQL. */
  static void database(DynamicPropertyRegistry registry) {
    registry.add("spring.datasource.url", TestDatabase::jdbcUrl);
    registry.add("spring.datasource.username", () -> "postgres");
    registry.add("spring.datasource.password", () -> "postgres");
  }

  /** Stands in for the application's authentication, before Once's filter: one client. */
  @Bean
  FilterRegistrationBean<Filter> authentication() {
    FilterRegistrationBean<Filter> registration =
        new FilterRegistrationBean<>(
            (request, response, chain) -> {
              request.setAttribute(IdempotencyClientResolver.CLIENT_ID_ATTRIBUTE, "once-test");
              chain.doFilter(request, response);
            });
    registration.setOrder(-100);
    return registration;
  }

  static ResponseEntity<String> created(String tag) {
    String id = UUID.randomUUID().toString();
    return ResponseEntity.status(HttpStatus.CREATED)
        .location(URI.create("/effects/" + tag + "/" + id))
        .contentType(MediaType.APPLICATION_JSON)
        .body("{\"id\":\"" + id + "\",\"tag\":\"" + tag + "\"}");
  }

  static ResponseEntity<String> replay(ResponseEntity<String> stored) {
    return ResponseEntity.status(stored.getStatusCode())
        .headers(stored.getHeaders())
        .header("Idempotent-Replayed", "true")
        .body(stored.getBody());
  }

  /** Endpoints on Once's starter: the handler runs inside Once's transaction. */
  @RestController
  static class OnceEndpoints {
    private final JdbcTemplate jdbc;
    private final TransactionTemplate separate;

    OnceEndpoints(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
      this.jdbc = jdbc;
      this.separate = new TransactionTemplate(transactions);
      separate.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    /** Correct: the insert joins Once's transaction. */
    @Idempotent
    @PostMapping("/once/effects/{tag}")
    ResponseEntity<String> correct(@PathVariable String tag, @RequestBody String body) {
      jdbc.update("INSERT INTO effect (tag) VALUES (?)", tag);
      return created(tag);
    }

    /**
     * Broken: the insert commits in a transaction of its own, so a failure after the handler rolls
     * back the key but not the effect.
     */
    @Idempotent
    @PostMapping("/once/outside/{tag}")
    ResponseEntity<String> outside(@PathVariable String tag, @RequestBody String body) {
      separate.executeWithoutResult(
          status -> jdbc.update("INSERT INTO effect (tag) VALUES (?)", tag));
      return created(tag);
    }
  }

  /** Idempotency rolled by hand (no Once), each wrong in one way; keys in memory. */
  @RestController
  static class HandRolledEndpoints {
    private final JdbcTemplate jdbc;
    private final Map<String, ResponseEntity<String>> answers = new ConcurrentHashMap<>();
    private final Set<String> keys = ConcurrentHashMap.newKeySet();

    HandRolledEndpoints(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    private void insert(String tag) {
      jdbc.update("INSERT INTO effect (tag) VALUES (?)", tag);
    }

    /** Applies the effect before it looks the key up. */
    @PostMapping("/hand/effect-first/{tag}")
    synchronized ResponseEntity<String> effectFirst(
        @PathVariable String tag,
        @RequestHeader(name = "Idempotency-Key", required = false) String key) {
      if (key == null) {
        return ResponseEntity.badRequest().build();
      }
      insert(tag);
      ResponseEntity<String> stored = answers.get(key);
      if (stored != null) {
        return replay(stored);
      }
      ResponseEntity<String> answer = created(tag);
      answers.put(key, answer);
      return answer;
    }

    /** Records the key but not the answer: a retry gets something else, not a replay. */
    @PostMapping("/hand/answer-not-stored/{tag}")
    synchronized ResponseEntity<String> answerNotStored(
        @PathVariable String tag,
        @RequestHeader(name = "Idempotency-Key", required = false) String key) {
      if (key == null) {
        return ResponseEntity.badRequest().build();
      }
      if (!keys.add(key)) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body("{\"done\":true}");
      }
      insert(tag);
      return created(tag);
    }

    /**
     * Answers every key it has seen with a bare 409 (no problem type, no {@code Retry-After}): the
     * duplicates of a concurrent burst get a "conflict" that tells the client nothing.
     */
    @PostMapping("/hand/bare-409/{tag}")
    ResponseEntity<String> bare409(
        @PathVariable String tag,
        @RequestHeader(name = "Idempotency-Key", required = false) String key) {
      if (key == null) {
        return ResponseEntity.badRequest().build();
      }
      if (!keys.add(key)) {
        return ResponseEntity.status(409)
            .contentType(MediaType.APPLICATION_JSON)
            .body("{\"error\":\"conflict\"}");
      }
      insert(tag);
      return created(tag);
    }

    /** No idempotency at all: what an endpoint is when its {@code @Idempotent} is forgotten. */
    @PostMapping("/hand/unprotected/{tag}")
    ResponseEntity<String> unprotected(@PathVariable String tag) {
      insert(tag);
      return created(tag);
    }

    /** Replays by key alone: another body with the same key gets the first answer. */
    @PostMapping("/hand/body-ignored/{tag}")
    synchronized ResponseEntity<String> bodyIgnored(
        @PathVariable String tag,
        @RequestHeader(name = "Idempotency-Key", required = false) String key,
        @RequestBody(required = false) String body) {
      if (key == null) {
        return ResponseEntity.badRequest().build();
      }
      ResponseEntity<String> stored = answers.get(key);
      if (stored != null) {
        return replay(stored);
      }
      insert(tag);
      ResponseEntity<String> answer = created(tag);
      answers.put(key, answer);
      return answer;
    }
  }
}
