package dev.once.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.idempotency.IdempotencyEngine;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@link Idempotent} chooses idempotent endpoints by handler, next to {@code
 * once.idempotency.http.paths} ({@code /api/**} in this application), end to end through a real
 * server and a real database.
 */
@SpringBootTest(
    classes = {
      FilterTestApplication.class,
      IdempotentAnnotationTest.AnnotatedMethods.class,
      IdempotentAnnotationTest.AnnotatedClass.class,
      IdempotentAnnotationTest.OptionalUnderPaths.class
    },
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    // A context of its own: a small pool, closed after the class, leaves the test server's
    // connections to the others.
    properties = "spring.datasource.hikari.maximum-pool-size=4")
@DirtiesContext
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IdempotentAnnotationTest {

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    FilterTestApplication.database(registry);
  }

  @LocalServerPort int port;
  @Autowired JdbcClient jdbc;
  @Autowired IdempotencyEngine engine;

  private final String client = "client-" + UUID.randomUUID();

  /** Records an effect and answers 201 with a body that differs on every execution. */
  static ResponseEntity<String> effect(JdbcClient jdbc, String tag) {
    jdbc.sql("INSERT INTO effect (tag) VALUES (:tag)").param("tag", tag).update();
    return ResponseEntity.status(HttpStatus.CREATED)
        .body("{\"id\":\"" + UUID.randomUUID() + "\",\"tag\":\"" + tag + "\"}");
  }

  @RestController
  @RequestMapping("/annotated")
  static class AnnotatedMethods {
    private final JdbcClient jdbc;

    AnnotatedMethods(JdbcClient jdbc) {
      this.jdbc = jdbc;
    }

    @Idempotent
    @PostMapping("/required/{tag}")
    ResponseEntity<String> required(@PathVariable String tag) {
      return effect(jdbc, tag);
    }

    @Idempotent(required = false)
    @PostMapping("/optional/{tag}")
    ResponseEntity<String> optional(@PathVariable String tag) {
      return effect(jdbc, tag);
    }

    @PostMapping("/plain/{tag}")
    ResponseEntity<String> plain(@PathVariable String tag) {
      return effect(jdbc, tag);
    }

    @Idempotent(retention = "2s")
    @PostMapping("/short-lived/{tag}")
    ResponseEntity<String> shortLived(@PathVariable String tag) {
      return effect(jdbc, tag);
    }

    /** A refusal is stored under the endpoint's retention too. */
    @Idempotent(retention = "PT90M")
    @PostMapping("/refusing/{tag}")
    ResponseEntity<String> refusing(@PathVariable String tag) {
      effect(jdbc, tag);
      return ResponseEntity.unprocessableEntity().body("{\"refused\":\"" + tag + "\"}");
    }
  }

  /** Under {@code /api/**}, which requires a key, but the annotation says a key is optional. */
  @RestController
  static class OptionalUnderPaths {
    private final JdbcClient jdbc;

    OptionalUnderPaths(JdbcClient jdbc) {
      this.jdbc = jdbc;
    }

    @Idempotent(required = false)
    @PostMapping("/api/optional-here/{tag}")
    ResponseEntity<String> optional(@PathVariable String tag) {
      return effect(jdbc, tag);
    }
  }

  @Idempotent
  @RestController
  @RequestMapping("/annotated-class")
  static class AnnotatedClass {
    private final JdbcClient jdbc;

    AnnotatedClass(JdbcClient jdbc) {
      this.jdbc = jdbc;
    }

    @PostMapping("/one/{tag}")
    ResponseEntity<String> one(@PathVariable String tag) {
      return effect(jdbc, tag);
    }

    @PostMapping("/two/{tag}")
    ResponseEntity<String> two(@PathVariable String tag) {
      return effect(jdbc, tag);
    }

    /** A safe method: never idempotent by Once's rules (only once.idempotency.http.methods). */
    @GetMapping("/count/{tag}")
    long count(@PathVariable String tag) {
      return FilterRequests.effects(jdbc, tag);
    }

    /** The method's annotation wins over the class's. */
    @Idempotent(required = false)
    @PostMapping("/optional/{tag}")
    ResponseEntity<String> optional(@PathVariable String tag) {
      return effect(jdbc, tag);
    }
  }

  private HttpRequest.Builder post(String path, String key) {
    return FilterRequests.post(port, client, path, key, "{}");
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) {
    return FilterRequests.send(request);
  }

  private long effects(String tag) {
    return FilterRequests.effects(jdbc, tag);
  }

  private long keysOfClient() {
    return FilterRequests.keysOf(jdbc, client);
  }

  private static String tag() {
    return "t" + UUID.randomUUID().toString().replace("-", "");
  }

  /** Asserts the request executed (201, not replayed) and returns its body. */
  private static String executed(HttpResponse<String> r) {
    assertThat(r.statusCode()).isEqualTo(201);
    assertThat(r.headers().firstValue(KeyedHttpRequests.REPLAYED_HEADER)).isEmpty();
    return r.body();
  }

  private static void replayed(HttpResponse<String> r, String body) {
    assertThat(r.statusCode()).isEqualTo(201);
    assertThat(r.headers().firstValue(KeyedHttpRequests.REPLAYED_HEADER)).hasValue("true");
    assertThat(r.body()).isEqualTo(body);
  }

  @Test
  void anAnnotatedMethodRequiresAKeyAndReplaysItsAnswer() {
    String tag = tag();
    FilterRequests.assertProblem(
        send(post("/annotated/required/" + tag, null)), 400, "idempotency-key-missing");
    assertThat(effects(tag)).isZero();

    String body = executed(send(post("/annotated/required/" + tag, "k-1")));
    replayed(send(post("/annotated/required/" + tag, "k-1")), body);

    assertThat(effects(tag)).isEqualTo(1);
    assertThat(FilterRequests.storedKeys(jdbc, client, "k-1")).isEqualTo(1);
  }

  @Test
  void anEndpointsRetentionIsStoredWithItsKeys() {
    String tag = tag();
    String body = executed(send(post("/annotated/short-lived/" + tag, "k-short")));
    replayed(send(post("/annotated/short-lived/" + tag, "k-short")), body);
    HttpResponse<String> refused = send(post("/annotated/refusing/" + tag, "k-refused"));
    assertThat(refused.statusCode()).isEqualTo(422);
    executed(send(post("/annotated/required/" + tag, "k-default")));

    assertThat(FilterRequests.storedRetention(jdbc, client, "k-short"))
        .isEqualTo(Duration.ofSeconds(2));
    assertThat(FilterRequests.storedRetention(jdbc, client, "k-refused"))
        .isEqualTo(Duration.ofMinutes(90));
    assertThat(FilterRequests.storedRetention(jdbc, client, "k-default"))
        .isEqualTo(engine.retention());
    // The short-lived and the default endpoint's; the refusal's effect was rolled back.
    assertThat(effects(tag)).isEqualTo(2);
  }

  @Test
  void anAnnotatedClassMakesEachOfItsUnsafeHandlersIdempotent() {
    for (String handler : new String[] {"one", "two"}) {
      String tag = tag();
      String path = "/annotated-class/" + handler + "/" + tag;
      FilterRequests.assertProblem(send(post(path, null)), 400, "idempotency-key-missing");
      String body = executed(send(post(path, "k-" + handler)));
      replayed(send(post(path, "k-" + handler)), body);
      assertThat(effects(tag)).isEqualTo(1);
    }
    HttpResponse<String> get =
        send(
            HttpRequest.newBuilder(
                    URI.create("http://localhost:" + port + "/annotated-class/count/" + tag()))
                .header("X-Client", client)
                .GET());
    assertThat(get.statusCode()).isEqualTo(200);
    assertThat(get.body()).isEqualTo("0");
  }

  @Test
  void anUnannotatedHandlerOutsideThePathsNeedsNoKeyAndIsNotRecorded() {
    String tag = tag();
    executed(send(post("/annotated/plain/" + tag, null)));
    // A key sent to an endpoint that is not idempotent is ignored: both requests run.
    executed(send(post("/annotated/plain/" + tag, "k-plain")));
    executed(send(post("/annotated/plain/" + tag, "k-plain")));

    assertThat(effects(tag)).isEqualTo(3);
    assertThat(keysOfClient()).isZero();
  }

  @Test
  void anOptionalKeyRunsEveryRequestWithoutOneAndReplaysARequestWithOne() {
    String tag = tag();
    executed(send(post("/annotated/optional/" + tag, null)));
    executed(send(post("/annotated/optional/" + tag, null)));
    assertThat(effects(tag)).isEqualTo(2);
    assertThat(keysOfClient()).isZero();

    String body = executed(send(post("/annotated/optional/" + tag, "k-opt")));
    replayed(send(post("/annotated/optional/" + tag, "k-opt")), body);
    assertThat(effects(tag)).isEqualTo(3);
    assertThat(FilterRequests.storedKeys(jdbc, client, "k-opt")).isEqualTo(1);
  }

  @Test
  void anOptionalKeyThatIsSentMustBeValid() {
    String tag = tag();
    FilterRequests.assertProblem(
        send(post("/annotated/optional/" + tag, "")), 400, "idempotency-key-invalid");
    assertThat(effects(tag)).isZero();
  }

  @Test
  void theMethodsAnnotationWinsOverTheClassesAndOverThePaths() {
    String classTag = tag();
    executed(send(post("/annotated-class/optional/" + classTag, null)));
    executed(send(post("/annotated-class/optional/" + classTag, null)));
    assertThat(effects(classTag)).isEqualTo(2);

    String pathTag = tag();
    executed(send(post("/api/optional-here/" + pathTag, null)));
    String body = executed(send(post("/api/optional-here/" + pathTag, "k-here")));
    replayed(send(post("/api/optional-here/" + pathTag, "k-here")), body);
    assertThat(effects(pathTag)).isEqualTo(2);
  }

  @Test
  void thePathsStillMarkUnannotatedHandlers() {
    String tag = tag();
    FilterRequests.assertProblem(
        send(post("/api/effects/" + tag, null)), 400, "idempotency-key-missing");
    assertThat(effects(tag)).isZero();
    String body = executed(send(post("/api/effects/" + tag, "k-api")));
    replayed(send(post("/api/effects/" + tag, "k-api")), body);
    assertThat(effects(tag)).isEqualTo(1);
  }

  @Test
  void aRequestNoHandlerTakesIsNotRefusedForItsMissingKey() {
    HttpResponse<String> unknown = send(post("/annotated/nothing-here/" + tag(), null));
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(keysOfClient()).isZero();
  }
}
