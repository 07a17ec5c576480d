package com.example.wallet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.test.fixtures.TestPostgres;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The wallet as a user runs it, in a JVM of its own: from the code {@code spring-boot:process-aot}
 * generated ({@code -Dspring.aot.enabled=true}, as a native image would) and without it, against
 * the test JVM's PostgreSQL. Both answer the same: a credit with a new key is 201, its retry a
 * replay, the key with another body 422, and the listener records the credit once. A malformed
 * {@code once.*} property stops either start, naming the property. And the build wrote what a
 * native image needs: the event types found at build time, Once's hints.
 */
@Timeout(180)
class WalletAotIT {
  private static final Duration START = Duration.ofSeconds(90);
  private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");
  private static final Path TARGET = Path.of("target");

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final JdbcClient jdbc = JdbcClient.create(TestPostgres.dataSource());

  @Test
  void theBuildRecordedTheEventTypesSoTheAotStartDoesNotScan() throws IOException {
    Path sources = TARGET.resolve("spring-aot/main/sources");
    assertThat(sources).isDirectory();
    try (Stream<Path> files = Files.walk(sources)) {
      String generated =
          files
              .filter(Files::isRegularFile)
              .map(WalletAotIT::read)
              .reduce("", (a, b) -> a + "\n" + b);
      assertThat(generated)
          .contains("PublishedEventTypes.of(List.of(\"wallet.credited\"))")
          .contains("forFactoryMethod(TypedInboxConsumer.class, \"ofBeans\"");
    }
  }

  @Test
  void theBuildRegisteredOncesHints() {
    JsonNode metadata =
        JsonMapper.builder()
            .build()
            .readTree(
                TARGET
                    .resolve(
                        "classes/META-INF/native-image/dev.once.samples/wallet/"
                            + "reachability-metadata.json")
                    .toFile());
    assertThat(metadata.get("resources").findValuesAsString("glob"))
        .as("Once's schema scripts")
        .contains("dev/once/postgres/migration/*.sql");
    assertThat(reflection(metadata, CreditHistory.class).toString())
        .as("the listener method, invoked")
        .contains("\"name\":\"on\"")
        .contains(WalletCredited.class.getName());
    assertThat(reflection(metadata, WalletCredited.class).toString())
        .as("the event record, bound by Jackson")
        .contains("\"name\":\"creditId\"")
        .contains("\"allDeclaredConstructors\":true");
  }

  private static JsonNode reflection(JsonNode metadata, Class<?> type) {
    for (JsonNode entry : metadata.get("reflection")) {
      if (entry.path("type").asString().equals(type.getName())) {
        return entry;
      }
    }
    throw new AssertionError("no reflection hint for " + type.getName());
  }

  @ParameterizedTest(name = "spring.aot.enabled={0}")
  @ValueSource(booleans = {true, false})
  void creditsAreIdempotentAndRecordedOnce(boolean aot) throws Exception {
    Child app = Child.start(aot, database());
    try {
      int port = app.port();
      assertThat(app.output().contains("Starting AOT-processed WalletApplication"))
          .as("started from the generated code")
          .isEqualTo(aot);
      // The embedded module's configuration is in the generated code (no URL at build time),
      // and it still yields at run time to the URL given then.
      assertThat(app.output()).doesNotContain("Embedded PostgreSQL: data in");
      String wallet = "w-" + UUID.randomUUID();
      URI credits = URI.create("http://localhost:" + port + "/wallets/" + wallet + "/credits");
      String key = "k-" + UUID.randomUUID();

      HttpResponse<String> first = post(credits, key, "{\"amount\": 10.00}");
      assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
      assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
      assertThat(first.body()).contains("\"balance\":10.00");

      HttpResponse<String> retry = post(credits, key, "{\"amount\": 10.00}");
      assertThat(retry.statusCode()).isEqualTo(201);
      assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
      assertThat(retry.body()).isEqualTo(first.body());

      HttpResponse<String> otherBody = post(credits, key, "{\"amount\": 11.00}");
      assertThat(otherBody.statusCode()).isEqualTo(422);
      assertThat(otherBody.headers().firstValue("Content-Type"))
          .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
      assertThat(otherBody.body()).contains("idempotency-key-reused");

      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  jdbc.sql("SELECT state FROM once.outbox WHERE aggregate_id = ?")
                      .param(wallet)
                      .query(String.class)
                      .list(),
              states -> states.equals(List.of("delivered")));
      assertThat(
              jdbc.sql("SELECT count(*) FROM credit_history WHERE wallet = ?")
                  .param(wallet)
                  .query(Long.class)
                  .single())
          .as("the listener recorded the credit once")
          .isEqualTo(1L);
      assertThat(
              jdbc.sql("SELECT balance FROM wallet WHERE id = ?")
                  .param(wallet)
                  .query(java.math.BigDecimal.class)
                  .single())
          .isEqualByComparingTo("10.00");
    } finally {
      app.stop();
    }
  }

  /**
   * No database given: the AOT-processed application starts the embedded default (its data under
   * target/), migrates as its owner, grants the application role through {@code
   * ${application_role}}, and serves as that role.
   */
  @Test
  void anAotProcessedStartWithNoDatabaseUsesTheEmbeddedDefault() throws Exception {
    Path data = TARGET.resolve("embedded-default").toAbsolutePath();
    Child app =
        Child.start(true, new ArrayList<>(List.of("--once.embedded-postgres.data-dir=" + data)));
    try {
      int port = app.port();
      assertThat(app.output())
          .contains("Starting AOT-processed WalletApplication")
          .contains("Embedded PostgreSQL: data in " + data);
      URI credits =
          URI.create("http://localhost:" + port + "/wallets/w-" + UUID.randomUUID() + "/credits");
      String key = "k-" + UUID.randomUUID();
      HttpResponse<String> first = post(credits, key, "{\"amount\": 3.00}");
      assertThat(first.statusCode()).as(first.body() + app.output()).isEqualTo(201);
      HttpResponse<String> replay = post(credits, key, "{\"amount\": 3.00}");
      assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    } finally {
      app.stop();
    }
  }

  @ParameterizedTest(name = "spring.aot.enabled={0}")
  @ValueSource(booleans = {true, false})
  void aMalformedOncePropertyStopsTheStartNamingIt(boolean aot) throws Exception {
    List<String> arguments = database();
    arguments.add("--once.idempotency.retention=banana");
    Child app = Child.start(aot, arguments);
    try {
      int exit = app.exitCode();
      assertThat(exit).as(app.output()).isNotZero();
      assertThat(app.output()).contains("once.idempotency.retention").contains("banana");
    } finally {
      app.stop();
    }
  }

  private static List<String> database() {
    List<String> arguments = new ArrayList<>();
    arguments.add("--spring.datasource.url=" + TestPostgres.jdbcUrl());
    arguments.add("--spring.datasource.username=" + TestPostgres.user());
    arguments.add("--spring.datasource.password=" + TestPostgres.password());
    return arguments;
  }

  private HttpResponse<String> post(URI uri, String key, String json)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", key)
            .header("X-Wallet-Owner", "alice")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new AssertionError("cannot read " + file, e);
    }
  }

  /** The application in a child JVM, its output collected; the port once Tomcat has started. */
  private static final class Child {
    private final Process process;
    private final StringBuffer output = new StringBuffer();
    private final CompletableFuture<Integer> port = new CompletableFuture<>();
    private final Thread reader;

    private Child(Process process) {
      this.process = process;
      this.reader = new Thread(this::read, "wallet-output");
      reader.setDaemon(true);
      reader.start();
    }

    static Child start(boolean aot, List<String> arguments) throws IOException {
      Path temporary = Files.createDirectories(TARGET.resolve("wallet-tmp").toAbsolutePath());
      String classpath =
          TARGET.resolve("classes").toAbsolutePath()
              + java.io.File.pathSeparator
              + Files.readString(TARGET.resolve("runtime.classpath")).strip();
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Dspring.aot.enabled=" + aot);
      command.add("-Djava.io.tmpdir=" + temporary); // Tomcat's work directory, in target/
      command.add("-Xshare:auto");
      command.add("-XX:TieredStopAtLevel=1");
      command.add("-cp");
      command.add(classpath);
      command.add(WalletApplication.class.getName());
      command.add("--server.port=0");
      command.add("--spring.main.banner-mode=off");
      command.addAll(arguments);
      // run in target/, so that nothing it writes lands outside it
      return new Child(
          new ProcessBuilder(command).directory(TARGET.toFile()).redirectErrorStream(true).start());
    }

    private void read() {
      try (BufferedReader lines =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = lines.readLine()) != null) {
          output.append(line).append('\n');
          Matcher matcher = PORT.matcher(line);
          if (matcher.find()) {
            port.complete(Integer.parseInt(matcher.group(1)));
          }
        }
      } catch (IOException e) {
        port.completeExceptionally(e);
      }
      port.completeExceptionally(new IllegalStateException("exited before Tomcat started"));
    }

    int port() throws Exception {
      try {
        return port.get(START.toSeconds(), TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new AssertionError("the wallet did not start:\n" + output, e);
      }
    }

    int exitCode() throws InterruptedException {
      if (!process.waitFor(START.toSeconds(), TimeUnit.SECONDS)) {
        throw new AssertionError("the wallet did not stop:\n" + output);
      }
      reader.join(Duration.ofSeconds(10).toMillis()); // the rest of its output
      return process.exitValue();
    }

    String output() {
      return output.toString();
    }

    void stop() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    }
  }
}
