package dev.once.shop.bench;

import dev.once.outbox.OutboxAdmin;
import dev.once.shop.ShopApplication;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The relay's benchmark (docs/benchmarks.md), one run on one embedded PostgreSQL, the shop, its
 * in-process PSP simulator and the load generator all in this JVM:
 *
 * <ol>
 *   <li><b>HTTP new payments at full speed</b> with the relay running: payments per second, the
 *       outbox backlog sampled every 250 ms, and commit-to-settled p50/p99 (payment created to
 *       payment succeeded or failed);
 *   <li><b>relay alone</b>: N {@code provider.charge} rows pre-filled by SQL while not yet due,
 *       then released at once; rows per second until the last one is delivered, and
 *       release-to-delivery p50/p99.
 * </ol>
 *
 * Usage (see bench/relay.sh): {@code RelayBenchmark [rows=50000] [seconds=20] [clients=16]}. Not a
 * test: it asserts nothing and reports numbers.
 */
public final class RelayBenchmark {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String ADMIN = "bench-admin-token-0123456789abcdef";
  private static final int ACCOUNTS = 64;
  private static final boolean WRK = onPath("wrk");

  private RelayBenchmark() {}

  private static boolean onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int clients = args.length > 2 ? Integer.parseInt(args[2]) : 16;
    Path data = Files.createTempDirectory("once-relay-bench");
    boolean relay = Boolean.parseBoolean(System.getProperty("bench.relay", "true"));
    ConfigurableApplicationContext shop =
        SpringApplication.run(
            ShopApplication.class,
            "--server.port=0",
            "--shop.admin-token=" + ADMIN,
            "--shop.admin-token-file=" + data.resolve("admin-token"),
            "--shop.embedded-postgres.data-dir=" + data.resolve("pg"),
            "--once.outbox.relay.delivered-retention=1h",
            "--once.outbox.relay.enabled=" + relay,
            "--logging.level.root=WARN",
            "--spring.main.banner-mode=off");
    try {
      new RelayBenchmark.Run(shop, relay ? rows : 0, seconds, clients).run();
    } finally {
      shop.close();
    }
  }

  private static final class Run {
    private final JdbcClient jdbc;
    private final OutboxAdmin outbox;
    private final String base;
    private final int rows;
    private final int seconds;
    private final int clients;
    private final HttpClient http =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<String> report = new ArrayList<>();

    Run(ConfigurableApplicationContext shop, int rows, int seconds, int clients) {
      this.jdbc = shop.getBean(JdbcClient.class);
      this.outbox = shop.getBean(OutboxAdmin.class);
      this.base = "http://localhost:" + shop.getEnvironment().getProperty("local.server.port");
      this.rows = rows;
      this.seconds = seconds;
      this.clients = clients;
    }

    void run() throws Exception {
      String apiKey =
          post("/admin/v1/clients", "Bearer " + ADMIN, null, "{\"name\":\"bench\"}")
              .get("apiKey")
              .stringValue();
      List<String> accounts = new ArrayList<>();
      for (int i = 0; i < ACCOUNTS; i++) {
        String account =
            post(
                    "/v1/accounts",
                    "Bearer " + apiKey,
                    UUID.randomUUID().toString(),
                    "{\"currency\":\"EUR\"}")
                .get("id")
                .stringValue();
        post(
            "/v1/accounts/" + account + "/deposits",
            "Bearer " + apiKey,
            UUID.randomUUID().toString(),
            "{\"amount\":\"1000000000.00\"}");
        accounts.add(account);
      }
      line("| measure | value |");
      line("| --- | --- |");
      load(apiKey, accounts, 10, false);
      if (rows == 0) {
        // -Dbench.relay=false: the HTTP path alone, for comparison; nothing settles.
        Load alone = load(apiKey, accounts, seconds, false);
        line("| HTTP new payments, relay off | %.0f/s |", alone.requests / (double) seconds);
        write();
        return;
      }
      awaitEmptyBacklog();
      Instant start = Instant.now();
      Load measured = load(apiKey, accounts, seconds, true);
      awaitEmptyBacklog();
      double perSecond = measured.requests / (double) seconds;
      line(
          "| HTTP new payments, %d connections (%s), relay running | %.0f/s |",
          clients, WRK ? "wrk" : "Java HttpClient in the shop's JVM", perSecond);
      line("| non-201 answers | %d |", measured.failures);
      line(
          "| outbox backlog, max / mean of samples every 250 ms | %d / %.0f |",
          measured.maxBacklog, measured.meanBacklog);
      double[] settled =
          percentiles(
              "SELECT extract(epoch FROM updated_at - created_at) FROM payment"
                  + " WHERE created_at >= ? AND status <> 'pending'",
              start);
      line(
          "| commit-to-settled p50 / p99 | %.0f ms / %.0f ms |",
          settled[0] * 1000, settled[1] * 1000);

      double drained = drain(accounts);
      line(
          "| relay alone: %d provider.charge rows (provider call + settle + completion) | %.0f rows/s |",
          rows, drained);
      line("| relay / HTTP new payments | **%.2f** |", drained / perSecond);
      write();
    }

    /** Pre-fills rows not yet due, releases them at once, and times the drain. */
    private double drain(List<String> accounts) throws InterruptedException {
      jdbc.sql(
              """
              WITH ops AS (
                  INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)
                  SELECT 'op_bench' || g, (?::text[])[1 + g % ?], 'charge', -1, NULL, now()
                  FROM generate_series(1, ?) g
                  RETURNING id, account_id
              )
              INSERT INTO payment (id, client_id, account_id, amount, currency, description,
                                   status, charge_operation_id, created_at, updated_at)
              SELECT 'pay_bench' || substr(ops.id, 9), a.client_id, ops.account_id, 1, 'EUR',
                     NULL, 'pending', ops.id, now(), now()
              FROM ops JOIN account a ON a.id = ops.account_id
              """)
          .params(accounts.toArray(String[]::new), accounts.size(), rows)
          .update();
      jdbc.sql(
              """
              INSERT INTO once.outbox (message_id, type, aggregate_id, payload, next_attempt_at,
                                       created_at)
              SELECT gen_random_uuid(), 'provider.charge', id,
                     jsonb_build_object('paymentId', id, 'accountId', account_id,
                                        'amount', '1.0000', 'currency', 'EUR',
                                        'chargeOperationId', charge_operation_id),
                     'infinity', now()
              FROM payment WHERE id LIKE 'pay_bench%'
              """)
          .update();
      Instant released = Instant.now();
      jdbc.sql(
              "UPDATE once.outbox SET next_attempt_at = now(), created_at = now()"
                  + " WHERE next_attempt_at = 'infinity'")
          .update();
      // Cheap polling: the stats read partial indexes; a count over the table every 100 ms would
      // take the database's CPU from the relay it measures.
      while (outbox.stats().backlog() > 0) {
        Thread.sleep(500);
        if (Boolean.getBoolean("bench.explain") && ++polls % 10 == 0) {
          explain();
        }
      }
      double[] latency =
          percentiles(
              "SELECT extract(epoch FROM delivered_at - created_at) FROM once.outbox"
                  + " WHERE type = 'provider.charge' AND aggregate_id LIKE 'pay_bench%'"
                  + " AND created_at >= ?",
              released.minusSeconds(1));
      double last =
          jdbc.sql(
                  "SELECT extract(epoch FROM max(delivered_at) - min(created_at)) FROM once.outbox"
                      + " WHERE type = 'provider.charge' AND aggregate_id LIKE 'pay_bench%'")
              .query(Double.class)
              .single();
      line(
          "| relay alone: release-to-delivery p50 / p99 (a queue of %d) | %.1f s / %.1f s |",
          rows, latency[0], latency[1]);
      return rows / last;
    }

    private int polls;

    /** With -Dbench.explain=true: how the claim's scan fares as the drain goes on. */
    private void explain() {
      jdbc.sql(
              """
              EXPLAIN (ANALYZE, BUFFERS)
              SELECT o.id FROM once.outbox o
               WHERE o.state = 'pending' AND o.next_attempt_at <= now()
                 AND (o.lease_until IS NULL OR o.lease_until <= now())
                 AND o.type = ANY (ARRAY['provider.charge','payment.succeeded'])
                 AND NOT EXISTS (SELECT 1 FROM once.outbox e WHERE e.aggregate_id = o.aggregate_id
                                    AND e.id < o.id AND e.state <> 'delivered')
               ORDER BY o.next_attempt_at, o.id LIMIT 8
              """)
          .query(String.class)
          .list()
          .forEach(System.out::println);
      jdbc.sql(
              "SELECT n_live_tup || ' live, ' || n_dead_tup || ' dead, autovacuum '"
                  + " || coalesce(last_autovacuum::text, 'never') FROM pg_stat_user_tables"
                  + " WHERE relname = 'outbox'")
          .query(String.class)
          .list()
          .forEach(System.out::println);
    }

    private Load load(String apiKey, List<String> accounts, int duration, boolean sample)
        throws Exception {
      return WRK
          ? wrk(apiKey, accounts, duration, sample)
          : java(apiKey, accounts, duration, sample);
    }

    /**
     * The load from wrk (bench/payments.lua), a separate process, so the load generator does not
     * take the shop's JVM's CPU: the numbers compare with bench/run.sh's.
     */
    private Load wrk(String apiKey, List<String> accounts, int duration, boolean sample)
        throws Exception {
      ProcessBuilder builder =
          new ProcessBuilder(
                  "wrk",
                  "-t2",
                  "-c" + clients,
                  "-d" + duration + "s",
                  "-s",
                  "bench/payments.lua",
                  base)
              .redirectErrorStream(true);
      builder.environment().put("API_KEY", apiKey);
      builder.environment().put("ACCOUNTS", String.join(",", accounts));
      builder.environment().put("RUN", "relay-" + System.nanoTime());
      Process wrk = builder.start();
      long[] backlog = sampleBacklog(wrk::isAlive, sample);
      String output = new String(wrk.getInputStream().readAllBytes());
      wrk.waitFor();
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("requests=(\\d+) errors\\(socket\\)=(\\d+) non2xx=(\\d+)")
              .matcher(output);
      if (!m.find()) {
        throw new IllegalStateException("wrk said:\n" + output);
      }
      return new Load(
          Long.parseLong(m.group(1)) - Long.parseLong(m.group(3)) - Long.parseLong(m.group(2)),
          Long.parseLong(m.group(2)) + Long.parseLong(m.group(3)),
          backlog[0],
          backlog[2] == 0 ? 0 : backlog[1] / (double) backlog[2]);
    }

    /** Max, sum and count of backlog samples every 250 ms while {@code running}. */
    private long[] sampleBacklog(java.util.function.BooleanSupplier running, boolean sample)
        throws InterruptedException {
      long[] stats = new long[3];
      while (running.getAsBoolean()) {
        Thread.sleep(250);
        if (sample) {
          long backlog = outbox.stats().backlog();
          stats[0] = Math.max(stats[0], backlog);
          stats[1] += backlog;
          stats[2]++;
        }
      }
      return stats;
    }

    private Load java(String apiKey, List<String> accounts, int duration, boolean sample)
        throws Exception {
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong ok = new AtomicLong();
      AtomicLong failed = new AtomicLong();
      ExecutorService threads = Executors.newFixedThreadPool(clients);
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        running.add(
            threads.submit(
                () -> {
                  while (!stop.get()) {
                    String account =
                        accounts.get(ThreadLocalRandom.current().nextInt(accounts.size()));
                    String body =
                        "{\"accountId\":\""
                            + account
                            + "\",\"amount\":\"1.00\",\"currency\":\"EUR\"}";
                    (send("/v1/payments", "Bearer " + apiKey, UUID.randomUUID().toString(), body)
                                == 201
                            ? ok
                            : failed)
                        .incrementAndGet();
                  }
                  return null;
                }));
      }
      long max = 0;
      long sum = 0;
      long samples = 0;
      Instant end = Instant.now().plusSeconds(duration);
      while (Instant.now().isBefore(end)) {
        Thread.sleep(250);
        if (sample) {
          long backlog = outbox.stats().backlog();
          max = Math.max(max, backlog);
          sum += backlog;
          samples++;
        }
      }
      stop.set(true);
      for (Future<?> f : running) {
        f.get();
      }
      threads.shutdown();
      return new Load(ok.get(), failed.get(), max, samples == 0 ? 0 : sum / (double) samples);
    }

    private void awaitEmptyBacklog() throws InterruptedException {
      while (outbox.stats().backlog() > 0) {
        Thread.sleep(100);
      }
    }

    private double[] percentiles(String sql, Instant since) {
      List<Double> values =
          jdbc.sql(sql + " ORDER BY 1")
              .param(java.sql.Timestamp.from(since))
              .query(Double.class)
              .list();
      if (values.isEmpty()) {
        return new double[] {Double.NaN, Double.NaN};
      }
      return new double[] {
        values.get((int) (values.size() * 0.50)),
        values.get(Math.min(values.size() - 1, (int) (values.size() * 0.99)))
      };
    }

    private int send(String path, String authorization, String key, String body) {
      try {
        HttpRequest.Builder request =
            HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", authorization)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
          request.header("Idempotency-Key", key);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
      } catch (IOException e) {
        return -1;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return -1;
      }
    }

    private JsonNode post(String path, String authorization, String key, String body)
        throws Exception {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(base + path))
              .header("Authorization", authorization)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(body));
      if (key != null) {
        request.header("Idempotency-Key", key);
      }
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 201) {
        throw new IllegalStateException(
            path + " answered " + response.statusCode() + ": " + response.body());
      }
      return JSON.readTree(response.body());
    }

    private void line(String format, Object... values) {
      String text = values.length == 0 ? format : String.format(format, values);
      report.add(text);
      System.out.println(text);
    }

    private void write() throws IOException {
      Path folder = Path.of("target", "bench");
      Files.createDirectories(folder);
      Path file =
          folder.resolve(
              "relay-"
                  + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                  + ".md");
      Files.write(file, report);
      System.out.println("written to " + file.toAbsolutePath());
    }
  }

  private record Load(long requests, long failures, long maxBacklog, double meanBacklog) {}
}
