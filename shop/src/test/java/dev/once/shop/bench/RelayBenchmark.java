package dev.once.shop.bench;

import static dev.once.shop.bench.BenchTable.f;

import dev.once.outbox.OutboxAdmin;
import dev.once.shop.ShopApplication;
import dev.once.shop.support.ChildShop;
import dev.once.spring.IdempotencyKeyPurger;
import dev.once.spring.inbox.InboxPurger;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * The relay's benchmark (issues 6 and 21, docs/benchmarks.md): one command, one run, on one
 * embedded PostgreSQL ({@code fsync} on), with the shop in this JVM (its in-process PSP simulator,
 * its relay) and the load generator in this JVM too, then a final table of each measure against its
 * goal. Phases, each optional ({@code --phases}), in this order:
 *
 * <ol>
 *   <li>{@code http}: HTTP new payments with the relay on, then on a shop restarted on the same
 *       database with {@code --once.outbox.relay.enabled=false} (per {@code --rounds}); the ratio,
 *       the outbox backlog sampled every 250 ms and commit-to-settled ({@code payment.updated_at -
 *       created_at}) of the relay-on window;
 *   <li>{@code relay}: the relay alone drains {@code --rows} pre-filled {@code provider.charge}
 *       rows; rows/s, and per delivered row the shop database's commits and rollbacks ({@code
 *       pg_stat_database}) and the row writes of once.outbox and once.inbox ({@code
 *       pg_stat_user_tables}), the benchmark's own statements subtracted ({@link PgCounters});
 *   <li>{@code hot}: {@code --hot-rows} pre-filled rows of one aggregate (delivered one at a time);
 *   <li>{@code orders}: {@code POST /v1/orders} on 10 hot SKUs from {@code --order-connections}
 *       connections, place to reserved ({@code orders.reserved_at - created_at}), 503s counted;
 *   <li>{@code horizon}: HTTP new payments while another session holds a transaction with an xid
 *       open for {@code --hold} seconds: relay rows/s before, during and after;
 *   <li>{@code kill}: the in-process shop stops, a child shop JVM starts on the same database, is
 *       killed with SIGKILL while it delivers {@code --kill-rows} rows, and is started again: how
 *       long after the kill every row is delivered;
 *   <li>{@code purge} (issue 22): first one run of the key purge and one of the inbox purge, each
 *       on {@code --purge-rows} expired rows, timed (rows/s, and what one run leaves); then a shop
 *       with retentions of 5 s and purges every 5 s under sustained new payments for {@code
 *       --purge-seconds}, the sizes of once.idempotency_key and once.inbox sampled every 5 s:
 *       "stable" when the last third of the run holds no more rows than the middle third (plus a
 *       quarter), "growing" otherwise.
 * </ol>
 *
 * Delivered rows are counted through the shop's own state (payments that left {@code pending},
 * orders that left {@code placed}, rows no longer {@code pending}), never through delivered outbox
 * rows, which a relay may delete. Not a test: it asserts nothing, and is not part of the build's
 * tests (its name does not end in Test); bench/relay.sh runs it.
 */
public final class RelayBenchmark {
  private static final String ADMIN = "bench-admin-token-0123456789abcdef";
  private static final int ACCOUNTS = 64;
  private static final int HOT_SKUS = 10;
  private static final long HOT_STOCK = 1_000_000_000L;
  private static final List<String> SKUS = new ArrayList<>();

  static {
    for (int i = 0; i < HOT_SKUS; i++) {
      SKUS.add("hot-" + i);
    }
  }

  private final BenchOptions options;
  private final Path data;
  private final BenchTable table = new BenchTable();
  private final long started = System.nanoTime();
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private ConfigurableApplicationContext shop;
  private boolean relayOn;
  private JdbcClient jdbc;
  private OutboxAdmin outbox;
  private String base;
  private String apiKey;
  private final List<String> accounts = new ArrayList<>();

  /**
   * The logins of the shop's database as environment variables ({@code SPRING_DATASOURCE_URL}…),
   * kept for the child shops and the counters.
   */
  private final Map<String, String> logins = new LinkedHashMap<>();

  private RelayBenchmark(BenchOptions options, Path data) {
    this.options = options;
    this.data = data;
  }

  public static void main(String[] args) throws Exception {
    BenchOptions options = BenchOptions.parse(args);
    Path data = Files.createTempDirectory("once-relay-bench");
    RelayBenchmark bench = new RelayBenchmark(options, data);
    int status = 0;
    try {
      bench.run();
    } catch (Exception | Error e) {
      e.printStackTrace();
      status = 1;
    } finally {
      bench.closeShop();
    }
    // Zonky's shutdown hook stops the embedded PostgreSQL; load threads are daemons.
    System.exit(status);
  }

  private void run() throws Exception {
    table.header("# Relay benchmark (bench/relay.sh), " + LocalDateTime.now().withNano(0));
    table.header("");
    table.header("- config: " + options.describe());
    table.header(
        f(
            "- machine: %d CPUs (%s), load average at start %s, %s %s (%s), max heap %d MB",
            Runtime.getRuntime().availableProcessors(),
            cpuModel(),
            loadAverage(),
            System.getProperty("java.vm.name"),
            System.getProperty("java.runtime.version"),
            System.getProperty("java.vendor"),
            Runtime.getRuntime().maxMemory() >> 20));
    table.header("- data: " + data);
    progress("config: " + options.describe());
    startShop(true);
    table.header(
        "- PostgreSQL "
            + jdbc.sql("SHOW server_version").query(String.class).single()
            + " (embedded, fsync on, synchronous_commit on); load: Java HttpClient threads in the"
            + " shop's JVM; the shop's relay: "
            + shop.getEnvironment().getProperty("once.outbox.relay.workers", "?")
            + " workers");
    setUp();
    phase("http", this::httpPhase, "HTTP new payments, relay on / relay off", ">= 0.80");
    phase("relay", this::relayPhase, "relay alone, provider.charge rows", ">= 2,000 rows/s");
    phase("hot", this::hotPhase, "one hot aggregate", "reported");
    phase("orders", this::ordersPhase, "orders: place -> reserved p99", "< 2 s");
    phase("horizon", this::horizonPhase, "relay rows/s with a transaction held open", "reported");
    phase(
        "kill",
        this::killPhase,
        "rows of a killed shop redelivered",
        "all within 15 s of the kill");
    phase("purge", this::purgePhase, "purges keep pace: table sizes", "stable");
    table.header("- load average at the end: " + loadAverage());
    table.header(f("- total time: %.0f s", (System.nanoTime() - started) / 1e9));
    table.printAndWrite();
  }

  private interface Phase {
    void run() throws Exception;
  }

  /** Runs a phase if asked for; a failure is a row of the table, and the next phase runs. */
  private void phase(String name, Phase phase, String measure, String goal) {
    if (!options.runs(name)) {
      return;
    }
    long start = System.nanoTime();
    progress("phase " + name);
    try {
      phase.run();
    } catch (Exception | Error e) {
      e.printStackTrace();
      table.missing(measure + " (phase " + name + ")", "phase failed: " + e, goal);
    }
    progress(f("phase %s took %.0f s", name, (System.nanoTime() - start) / 1e9));
  }

  // ---------------------------------------------------------------------------------------------
  // The shop in this JVM

  private void startShop(boolean relay) {
    startShop(relay, List.of());
  }

  private void startShop(boolean relay, List<String> extra) {
    long start = System.nanoTime();
    List<String> args =
        InProcessShop.args(
            ADMIN,
            data,
            "--once.outbox.relay.enabled=" + relay,
            // One client drives every connection: the per-client caps would refuse it.
            "--once.idempotency.limits.max-in-flight-per-client=0",
            "--once.idempotency.limits.new-keys-per-minute=0");
    if (!relay) {
      // Nothing drains the outbox with the relay off: shedding would refuse every payment once
      // the first rows are 5 s old. With the relay on, the shop runs as deployed (shedding on).
      args.add("--once.outbox.load-shedding.enabled=false");
    }
    args.addAll(options.commonShopArgs());
    args.addAll(extra);
    shop = SpringApplication.run(ShopApplication.class, args.toArray(String[]::new));
    relayOn = relay;
    jdbc = shop.getBean(JdbcClient.class);
    outbox = shop.getBean(OutboxAdmin.class);
    base = "http://localhost:" + shop.getEnvironment().getProperty("local.server.port");
    logins.putAll(ChildShop.databaseLogins(shop.getEnvironment()));
    if (apiKey != null) {
      firstRequest();
    }
    progress(
        f(
            "shop started, relay %s, in %.1f s (%s)",
            relay ? "on" : "off", (System.nanoTime() - start) / 1e9, base));
  }

  /**
   * One authenticated read before any load: a fresh shop looks up a key it has not seen work yet
   * with a few lookups at a time and answers 503 to the rest (ApiKeyAuthenticator), which a load of
   * 16 first requests would otherwise meet.
   */
  private void firstRequest() {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(base + "/v1/accounts/" + accounts.get(0)))
              .header("Authorization", "Bearer " + apiKey)
              .build();
      http.send(request, HttpResponse.BodyHandlers.discarding());
    } catch (IOException e) {
      progress("  first request failed: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void closeShop() {
    if (shop != null) {
      shop.close();
      shop = null;
    }
  }

  private void restartShop(boolean relay) {
    closeShop();
    startShop(relay);
  }

  /** A client, 64 funded accounts and (for the orders phase) 10 hot SKUs, over HTTP. */
  private void setUp() throws Exception {
    apiKey =
        post("/admin/v1/clients", ADMIN, null, "{\"name\":\"bench\"}").get("apiKey").stringValue();
    for (int i = 0; i < ACCOUNTS; i++) {
      String account =
          post("/v1/accounts", apiKey, UUID.randomUUID().toString(), "{\"currency\":\"EUR\"}")
              .get("id")
              .stringValue();
      post(
          "/v1/accounts/" + account + "/deposits",
          apiKey,
          UUID.randomUUID().toString(),
          "{\"amount\":\"1000000000.00\"}");
      accounts.add(account);
    }
    if (options.runs("orders")) {
      for (String sku : SKUS) {
        post(
            "/v1/products",
            apiKey,
            UUID.randomUUID().toString(),
            f(
                "{\"sku\":\"%s\",\"name\":\"bench %s\",\"price\":\"0.01\",\"currency\":\"EUR\","
                    + "\"stock\":%d}",
                sku, sku, HOT_STOCK));
      }
    }
    progress("set up: a client, " + ACCOUNTS + " funded accounts, products " + SKUS);
  }

  // ---------------------------------------------------------------------------------------------
  // Phase http

  private void httpPhase() throws Exception {
    List<Double> on = new ArrayList<>();
    List<Double> off = new ArrayList<>();
    List<Double> settled = new ArrayList<>();
    long maxBacklog = 0;
    double meanBacklog = 0;
    long shed = 0;
    long other = 0;
    long stillPending = 0;
    for (int round = 1; round <= options.rounds(); round++) {
      if (!relayOn) {
        restartShop(true);
      }
      awaitBacklog(Duration.ofMinutes(5), "before the relay-on load");
      Window w = paymentWindow(true);
      on.add(w.rate);
      maxBacklog = Math.max(maxBacklog, w.maxBacklog);
      meanBacklog += w.meanBacklog / options.rounds();
      shed += w.counts.shed();
      other += w.counts.other() + w.counts.errors();
      long drain = awaitBacklog(Duration.ofMinutes(2), "after the relay-on load");
      settled.addAll(
          jdbc.sql(
                  "SELECT extract(epoch FROM updated_at - created_at)::float8 FROM payment"
                      + " WHERE created_at >= ? AND created_at < ? AND status <> 'pending'")
              .params(Timestamp.from(w.start), Timestamp.from(w.end))
              .query(Double.class)
              .list());
      stillPending +=
          jdbc.sql(
                  "SELECT count(*) FROM payment"
                      + " WHERE created_at >= ? AND created_at < ? AND status = 'pending'")
              .params(Timestamp.from(w.start), Timestamp.from(w.end))
              .query(Long.class)
              .single();
      progress(
          f(
              "  round %d relay on: %.0f/s, backlog max %d mean %.0f, drained %d ms after",
              round, w.rate, w.maxBacklog, w.meanBacklog, drain));
      restartShop(false);
      Window o = paymentWindow(false);
      off.add(o.rate);
      shed += o.counts.shed();
      other += o.counts.other() + o.counts.errors();
      progress(f("  round %d relay off: %.0f/s", round, o.rate));
    }
    // Back to a relay-on shop for the other phases; it first delivers what the relay-off load left.
    restartShop(true);
    long leftover = awaitBacklog(Duration.ofMinutes(5), "the relay-off load's rows");
    progress(f("  the relay-off load's rows delivered in %.1f s", leftover / 1e3));

    double medianOn = median(on);
    double medianOff = median(off);
    double ratio = medianOn / medianOff;
    table.goal(
        "HTTP new payments, relay on / relay off (" + options.connections() + " connections)",
        f(
            "%.2f (on %s/s, off %s/s%s)",
            ratio,
            rates(on),
            rates(off),
            options.rounds() > 1 ? ", medians of " + options.rounds() + " rounds" : ""),
        ">= 0.80",
        ratio >= 0.80);
    Collections.sort(settled);
    double p50 = percentile(settled, 0.50) * 1000;
    double p99 = percentile(settled, 0.99) * 1000;
    table.goal(
        "commit-to-settled under full HTTP load, p99 (p50)",
        f(
            "%.0f ms (%.0f ms), %d payments%s",
            p99,
            p50,
            settled.size(),
            stillPending == 0 ? "" : f(", %d still pending after the drain", stillPending)),
        "< 500 ms",
        p99 < 500 && stillPending == 0);
    double bound = medianOn; // rows appended in one second
    table.goal(
        "outbox backlog under that load, max / mean (samples every 250 ms)",
        f("%d / %.0f rows", maxBacklog, meanBacklog),
        f("bounded: max <= 1 s of appends (%.0f rows)", bound),
        maxBacklog <= bound);
    table.reported(
        "HTTP answers other than 201 in the http phase",
        f("%d 503 (shed), %d other or failed", shed, other));
  }

  private record Window(
      double rate,
      HttpLoad.Counts counts,
      Instant start,
      Instant end,
      long maxBacklog,
      double meanBacklog) {}

  /** A warm-up, then the measured window, of new payments on the running shop. */
  private Window paymentWindow(boolean sampleBacklog) throws Exception {
    try (HttpLoad load =
        HttpLoad.payments(base, apiKey, options.connections(), List.copyOf(accounts))) {
      Thread.sleep(options.warmup() * 1000L);
      HttpLoad.Counts before = load.counts();
      Instant start = Instant.now();
      long t0 = System.nanoTime();
      long[] backlog = sample(options.seconds(), sampleBacklog);
      HttpLoad.Counts counts = load.counts().minus(before);
      double seconds = (System.nanoTime() - t0) / 1e9;
      Instant end = Instant.now();
      return new Window(
          counts.created() / seconds,
          counts,
          start,
          end,
          backlog[0],
          backlog[2] == 0 ? 0 : backlog[1] / (double) backlog[2]);
    }
  }

  /** Sleeps {@code seconds}, sampling the backlog every 250 ms: max, sum, count. */
  private long[] sample(int seconds, boolean backlog) throws InterruptedException {
    long[] stats = new long[3];
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    while (System.nanoTime() < end) {
      Thread.sleep(Math.max(1, Math.min(250, (end - System.nanoTime()) / 1_000_000)));
      if (backlog) {
        long b = outbox.stats().backlog();
        stats[0] = Math.max(stats[0], b);
        stats[1] += b;
        stats[2]++;
      }
    }
    return stats;
  }

  // ---------------------------------------------------------------------------------------------
  // Phase relay

  private void relayPhase() throws Exception {
    int rows = options.rows();
    String tag = "relay";
    long t = System.nanoTime();
    prefill(tag, rows, null);
    progress(f("  %d rows pre-filled in %.1f s", rows, (System.nanoTime() - t) / 1e9));
    try (PgCounters pg = logIn()) {
      boolean force = pg.forceNextFlush();
      progress(
          "  pg_stat_force_next_flush(): "
              + (force ? "callable (flushes only the calling session)" : "not callable")
              + "; waiting for every session's counters to be flushed");
      Thread.sleep(PgCounters.IDLE_FLUSH_MILLIS);
      PgCounters.Database idleStart = pg.database();
      long idleT0 = System.nanoTime();
      Thread.sleep(5_000);
      PgCounters.Database before = pg.database();
      long t0 = System.nanoTime();
      long ownCommits0 = pg.ownCommits();
      long ownRollbacks0 = pg.ownRollbacks();
      double idleRate = (before.commits() - idleStart.commits()) / ((t0 - idleT0) / 1e9);
      Map<String, PgCounters.Table> tablesBefore = pg.tables();
      double[] release = pg.row(RELEASE, like(tag));
      long released = (long) release[0];
      double releasedAt = release[1];
      long releasedNanos = System.nanoTime();
      progress(f("  %d rows released; the relay delivers them", released));
      long pending = rows;
      long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
      long nextReport = System.nanoTime() + 10_000_000_000L;
      while (System.nanoTime() < deadline) {
        Thread.sleep(500); // polling the relay's progress; a benchmark, not a test
        pending = pg.number(PENDING_PAYMENTS, like(tag));
        // then the events the settlements published, whose aggregate is the payment's id
        if (pending == 0 && pg.number(PENDING_ROWS, like(tag)) == 0) {
          break;
        }
        if (System.nanoTime() > nextReport) {
          progress(
              pending > 0
                  ? f("  %d payments still pending", pending)
                  : "  every payment settled; their events are still being delivered");
          nextReport = System.nanoTime() + 10_000_000_000L;
        }
      }
      double everything = (System.nanoTime() - releasedNanos) / 1e9;
      double[] drained = pg.row(SETTLED, releasedAt, like(tag));
      long delivered = (long) drained[0];
      double lastSeconds = drained[1];
      double[] latency = pg.row(SETTLED_PERCENTILES, releasedAt, like(tag));
      progress("  waiting for every session's counters to be flushed");
      Thread.sleep(PgCounters.IDLE_FLUSH_MILLIS);
      PgCounters.Database after = pg.database();
      double window = (System.nanoTime() - t0) / 1e9;
      long ownCommits = pg.ownCommits() - ownCommits0;
      long ownRollbacks = pg.ownRollbacks() - ownRollbacks0;
      Map<String, PgCounters.Table> tablesAfter = pg.tables();

      double rate = delivered / lastSeconds;
      table.goal(
          f("relay alone: %,d provider.charge rows, fsync on", rows),
          f(
              "%.0f rows/s (%,d payments settled in %.1f s, and their events delivered after"
                  + " %.0f s; release to settled p50 %.1f s, p99 %.1f s)",
              rate, delivered, lastSeconds, everything, latency[0], latency[1]),
          ">= 2,000 rows/s",
          rate >= 2000 && delivered == rows);
      long commits = after.commits() - before.commits() - ownCommits;
      long rollbacks = after.rollbacks() - before.rollbacks() - ownRollbacks;
      // Every settlement appends its payment's event (the orders consumer takes it), a second
      // delivered row: the rows the drain delivered are the charges and the events appended in it.
      PgCounters.Table outboxBefore = tablesBefore.get("outbox");
      PgCounters.Table outboxAfter = tablesAfter.get("outbox");
      long events =
          outboxBefore == null || outboxAfter == null
              ? 0
              : outboxAfter.minus(outboxBefore).inserted();
      long deliveredRows = delivered + events;
      double perRow = commits / (double) deliveredRows;
      double background = idleRate * window;
      table.goal(
          "commits per delivered row during the relay-alone drain (pg_stat_database)",
          f(
              "%.2f (%,d commits / %,d rows: %,d charges and %,d events; %.2f per payment;"
                  + " %,d rollbacks; the bench's own %d statements subtracted; idle background"
                  + " %.1f commits/s, about %.0f in the window, included)",
              perRow,
              commits,
              deliveredRows,
              delivered,
              events,
              commits / (double) delivered,
              rollbacks,
              ownCommits + ownRollbacks,
              idleRate,
              background),
          "<= 1.2",
          perRow <= 1.2);
      for (String name : List.of("outbox", "inbox")) {
        PgCounters.Table a = tablesAfter.get(name);
        PgCounters.Table b = tablesBefore.get(name);
        if (a == null || b == null) {
          table.reported("row writes per delivered row, once." + name, "table not found");
          continue;
        }
        PgCounters.Table d = a.minus(b);
        if (name.equals("outbox")) {
          // the release's own updates (they change next_attempt_at, an indexed column: never HOT)
          d =
              new PgCounters.Table(
                  d.inserted(), d.updated() - released, d.deleted(), d.hotUpdated());
        }
        table.reported(
            "row writes per delivered row, once." + name + " (pg_stat_user_tables)",
            f(
                "%.2f (ins %.2f + upd %.2f + del %.2f; HOT upd %.2f; per delivered outbox row)",
                d.writes() / (double) deliveredRows,
                d.inserted() / (double) deliveredRows,
                d.updated() / (double) deliveredRows,
                d.deleted() / (double) deliveredRows,
                d.hotUpdated() / (double) deliveredRows));
      }
      progress(
          f(
              "  %.0f rows/s; %.2f commits/row (own %d), counters window %.0f s",
              rate, perRow, ownCommits, window));
    }
  }

  /** Releases the pre-filled rows of a tag at once: how many, and the database's now() (epoch). */
  private static final String RELEASE =
      """
      WITH r AS (
          UPDATE once.outbox SET next_attempt_at = now(), created_at = now()
          WHERE next_attempt_at = 'infinity' AND payload ->> 'paymentId' LIKE ?
          RETURNING 1)
      SELECT count(*), extract(epoch FROM now())::float8 FROM r
      """;

  /** Payments of a tag still pending: a range of the primary key (collation C). */
  private static final String PENDING_PAYMENTS =
      "SELECT count(*) FROM payment WHERE id LIKE ? AND status = 'pending'";

  /** Outbox rows of a tag (its charges and their events) still pending: partial indexes. */
  private static final String PENDING_ROWS =
      "SELECT count(*) FROM once.outbox WHERE state = 'pending' AND aggregate_id LIKE ?";

  /** Settled payments of a tag, and seconds from the release to the last settlement. */
  private static final String SETTLED =
      "SELECT count(*), extract(epoch FROM max(updated_at))::float8 - ? FROM payment"
          + " WHERE id LIKE ? AND status <> 'pending'";

  private static final String SETTLED_PERCENTILES =
      "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY s), percentile_cont(0.99) WITHIN GROUP"
          + " (ORDER BY s) FROM (SELECT extract(epoch FROM updated_at)::float8 - ? AS s"
          + " FROM payment WHERE id LIKE ? AND status <> 'pending') x";

  private static String like(String tag) {
    return "pay\\_" + tag + ".%";
  }

  /**
   * {@code rows} pending payments of tag {@code tag} (ids {@code pay_<tag>.<n>}, a dot no random id
   * has) over the 64 accounts, with their charge operations and {@code provider.charge} rows as
   * {@code PaymentService.create} writes them, but not yet due ({@code infinity}). Aggregate: each
   * payment's id, as the shop's, or {@code aggregate} for all of them (the hot aggregate).
   */
  private void prefill(String tag, int rows, String aggregate) {
    // In batches: the ledger guard's trigger updates the charged account's row for each charge,
    // and thousands of updates of 64 rows in one transaction make ever longer version chains.
    int batch = 2_500;
    for (int from = 1; from <= rows; from += batch) {
      jdbc.sql(
              """
              WITH ops AS (
                  INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)
                  SELECT 'op_' || ? || '.' || g, (?::text[])[1 + g % ?], 'charge', -1, NULL, now()
                  FROM generate_series(?, ?) g
                  RETURNING id, account_id
              ), pays AS (
                  INSERT INTO payment (id, client_id, account_id, amount, currency, description,
                                       status, charge_operation_id, created_at, updated_at)
                  SELECT 'pay_' || substr(ops.id, 4), a.client_id, ops.account_id, 1, 'EUR',
                         NULL, 'pending', ops.id, now(), now()
                  FROM ops JOIN account a ON a.id = ops.account_id
                  RETURNING id, account_id, charge_operation_id
              )
              INSERT INTO once.outbox (message_id, type, aggregate_id, payload, next_attempt_at,
                                       created_at)
              SELECT gen_random_uuid(), 'provider.charge', coalesce(?::text, id),
                     jsonb_build_object('paymentId', id, 'accountId', account_id,
                                        'amount', '1.0000', 'currency', 'EUR',
                                        'chargeOperationId', charge_operation_id),
                     'infinity', now()
              FROM pays
              ORDER BY substr(id, ?)::int
              """)
          .params(
              tag,
              accounts.toArray(String[]::new),
              accounts.size(),
              from,
              Math.min(rows, from + batch - 1),
              aggregate,
              ("pay_" + tag + ".").length() + 1)
          .update();
    }
  }

  private PgCounters logIn() throws SQLException {
    return PgCounters.open(
        logins.get("SPRING_DATASOURCE_URL"),
        logins.get("SPRING_FLYWAY_USER"),
        logins.get("SPRING_FLYWAY_PASSWORD"));
  }

  // ---------------------------------------------------------------------------------------------
  // Phase hot

  private void hotPhase() throws Exception {
    int rows = options.hotRows();
    String tag = "hot";
    String aggregate = "bench.hot-aggregate";
    prefill(tag, rows, aggregate);
    try (PgCounters pg = logIn()) {
      double releasedAt = pg.row(RELEASE, like(tag))[1];
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      long pending = rows;
      while (System.nanoTime() < deadline) {
        Thread.sleep(250); // polling the relay's progress
        pending = pg.number(PENDING_PAYMENTS, like(tag));
        if (pending == 0) {
          break;
        }
      }
      double[] drained = pg.row(SETTLED, releasedAt, like(tag));
      long delivered = (long) drained[0];
      double seconds = drained[1];
      table.reported(
          f("one hot aggregate: %,d provider.charge rows sharing one aggregate_id", rows),
          f(
              "%.0f rows/s (%,d delivered in %.1f s%s)",
              delivered / seconds,
              delivered,
              seconds,
              pending == 0 ? "" : f("; %d still pending after 3 minutes", pending)));
      progress(f("  %.0f rows/s, %d delivered", delivered / seconds, delivered));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Phase orders

  private void ordersPhase() throws Exception {
    awaitBacklog(Duration.ofMinutes(2), "before the orders");
    int connections = options.orderConnections();
    HttpLoad.Counts counts;
    Instant start;
    Instant end;
    double seconds;
    try (HttpLoad load = HttpLoad.orders(base, apiKey, connections, List.copyOf(accounts), SKUS)) {
      Thread.sleep(options.warmup() * 1000L);
      HttpLoad.Counts before = load.counts();
      start = Instant.now();
      long t0 = System.nanoTime();
      Thread.sleep(options.seconds() * 1000L);
      counts = load.counts().minus(before);
      seconds = (System.nanoTime() - t0) / 1e9;
      end = Instant.now();
    }
    long t = System.nanoTime();
    long placed = -1;
    while (System.nanoTime() - t < Duration.ofSeconds(120).toNanos()) {
      placed =
          jdbc.sql("SELECT count(*) FROM orders WHERE status = 'placed'")
              .query(Long.class)
              .single();
      if (placed == 0) {
        break;
      }
      Thread.sleep(250);
    }
    double drain = (System.nanoTime() - t) / 1e9;
    List<Double> reserved =
        jdbc.sql(
                "SELECT extract(epoch FROM reserved_at - created_at)::float8 FROM orders"
                    + " WHERE created_at >= ? AND created_at < ? AND reserved_at IS NOT NULL"
                    + " ORDER BY 1")
            .params(Timestamp.from(start), Timestamp.from(end))
            .query(Double.class)
            .list();
    long rejected =
        jdbc.sql("SELECT count(*) FROM orders WHERE created_at >= ? AND status = 'rejected'")
            .param(Timestamp.from(start))
            .query(Long.class)
            .single();
    double p50 = percentile(reserved, 0.50);
    double p99 = percentile(reserved, 0.99);
    table.goal(
        f("orders at %d connections: place -> reserved p99 (p50)", connections),
        f(
            "%.2f s (%.2f s), %d orders in %.0f s = %.0f/s; all reserved %s after the load;"
                + " %d rejected",
            p99,
            p50,
            reserved.size(),
            seconds,
            counts.created() / seconds,
            placed == 0 ? f("%.1f s", drain) : f("NOT (%d still placed after 120 s)", placed),
            rejected),
        "< 2 s",
        p99 < 2 && placed == 0);
    table.reported(
        "orders: 503 answers (load shedding) in the measured window",
        f(
            "%d 503, %d other non-201, %d failed (of %d answers)",
            counts.shed(),
            counts.other(),
            counts.errors(),
            counts.created() + counts.shed() + counts.other()));
    progress(f("  orders p99 %.2f s, %d 503", p99, counts.shed()));
  }

  // ---------------------------------------------------------------------------------------------
  // Phase horizon

  private void horizonPhase() throws Exception {
    awaitBacklog(Duration.ofMinutes(2), "before the horizon load");
    int window = options.horizonWindow();
    List<String> names = List.of("before", "during (held " + options.hold() + " s)", "after");
    List<Instant> bounds = new ArrayList<>();
    List<HttpLoad.Counts> counts = new ArrayList<>();
    List<Long> maxBacklog = new ArrayList<>();
    long xid;
    long deadTuples = -1;
    try (HttpLoad load =
        HttpLoad.payments(base, apiKey, options.connections(), List.copyOf(accounts))) {
      Thread.sleep(options.warmup() * 1000L);
      HttpLoad.Counts c = load.counts();
      bounds.add(Instant.now());
      maxBacklog.add(sample(window, true)[0]);
      counts.add(load.counts().minus(c));
      c = load.counts();
      bounds.add(Instant.now());
      try (Connection held =
          DriverManager.getConnection(
              logins.get("SPRING_DATASOURCE_URL"),
              logins.get("SPRING_FLYWAY_USER"),
              logins.get("SPRING_FLYWAY_PASSWORD"))) {
        held.setAutoCommit(false);
        try (Statement s = held.createStatement();
            ResultSet rs = s.executeQuery("SELECT txid_current()")) {
          rs.next();
          xid = rs.getLong(1);
        }
        progress("  transaction " + xid + " open for " + options.hold() + " s");
        maxBacklog.add(sample(options.hold(), true)[0]);
        deadTuples = outboxDeadTuples();
        held.commit();
      }
      counts.add(load.counts().minus(c));
      c = load.counts();
      bounds.add(Instant.now());
      maxBacklog.add(sample(window, true)[0]);
      counts.add(load.counts().minus(c));
      bounds.add(Instant.now());
    }
    awaitBacklog(Duration.ofMinutes(3), "after the horizon load");
    StringBuilder value = new StringBuilder();
    for (int i = 0; i < 3; i++) {
      Timestamp from = Timestamp.from(bounds.get(i));
      Timestamp to = Timestamp.from(bounds.get(i + 1));
      double seconds = Duration.between(bounds.get(i), bounds.get(i + 1)).toMillis() / 1e3;
      long settled =
          jdbc.sql(
                  "SELECT count(*) FROM payment WHERE updated_at >= ? AND updated_at < ?"
                      + " AND status <> 'pending' AND position('.' IN id) = 0")
              .params(from, to)
              .query(Long.class)
              .single();
      List<Double> latency =
          jdbc.sql(
                  "SELECT extract(epoch FROM updated_at - created_at)::float8 FROM payment"
                      + " WHERE created_at >= ? AND created_at < ? AND status <> 'pending'"
                      + " AND position('.' IN id) = 0 ORDER BY 1")
              .params(from, to)
              .query(Double.class)
              .list();
      value.append(
          f(
              "%s%s: relay %.0f rows/s, HTTP %.0f/s, backlog max %d, commit-to-settled p99 %.0f"
                  + " ms",
              i == 0 ? "" : "; ",
              names.get(i),
              settled / seconds,
              counts.get(i).created() / seconds,
              maxBacklog.get(i),
              percentile(latency, 0.99) * 1000));
    }
    if (deadTuples >= 0) {
      value.append(f("; once.outbox n_dead_tup at the end of the hold: %,d", deadTuples));
    }
    table.reported(
        f(
            "relay rows/s under HTTP load (%d connections), a transaction with an xid held open"
                + " %d s",
            options.connections(), options.hold()),
        value.toString());
    progress("  " + value);
  }

  private long outboxDeadTuples() {
    try {
      return jdbc.sql(
              "SELECT n_dead_tup FROM pg_stat_user_tables WHERE schemaname = 'once'"
                  + " AND relname = 'outbox'")
          .query(Long.class)
          .single();
    } catch (RuntimeException e) {
      return -1;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Phase purge (issue 22)

  private void purgePhase() throws Exception {
    if (shop == null) {
      startShop(true);
    }
    int rows = options.purgeRows();
    // One run of each purge on a backlog of expired rows: what it deletes, and how fast.
    IdempotencyKeyPurger keyPurger = shop.getBean(IdempotencyKeyPurger.class);
    timedPurge(
        f("key purge, one run on %,d expired keys", rows),
        """
        INSERT INTO once.idempotency_key (client_id, idem_key, fingerprint, state, status_code,
                                          body, created_at, completed_at, expires_at)
        SELECT 'bench-purge', 'k' || g, decode(repeat('00', 32), 'hex'), 'completed', 201,
               '\\x'::bytea, now() - interval '2 days', now() - interval '2 days',
               now() - interval '1 day'
          FROM generate_series(1, :rows) g
        """,
        keyPurger::purgeNow,
        "once.idempotency_key WHERE client_id = 'bench-purge'",
        "keys",
        shop.getEnvironment().getProperty("once.idempotency.purge.interval", "1m"));
    InboxPurger inboxPurger = shop.getBean(InboxPurger.class);
    timedPurge(
        f("inbox purge, one run on %,d old records", rows),
        """
        INSERT INTO once.inbox (message_id, consumer, received_at)
        SELECT gen_random_uuid(), 'bench-purge', now() - interval '30 days'
          FROM generate_series(1, :rows)
        """,
        inboxPurger::purgeNow,
        "once.inbox WHERE consumer = 'bench-purge'",
        "records",
        shop.getEnvironment().getProperty("once.inbox.purge.interval", "5m"));

    // Sustained writes with short retentions: the tables must stop growing.
    closeShop();
    List<String> shortRetentions =
        new ArrayList<>(
            List.of(
                "--once.idempotency.retention=5s",
                "--once.idempotency.purge.interval=5s",
                "--once.inbox.retention=5s",
                "--once.inbox.purge.interval=5s",
                // The inbox's retention must outlast every retry span: one attempt, no span.
                "--once.outbox.relay.retry.max-attempts=1",
                "--once.outbox.relay.types[provider.charge].max-attempts=1",
                "--once.outbox.relay.types[provider.refund].max-attempts=1"));
    if (options.purgeBatchSize() > 0) {
      shortRetentions.add("--once.idempotency.purge.batch-size=" + options.purgeBatchSize());
      shortRetentions.add("--once.inbox.purge.batch-size=" + options.purgeBatchSize());
    }
    startShop(true, shortRetentions);
    List<long[]> samples = new ArrayList<>();
    double rate;
    try (HttpLoad load =
        HttpLoad.payments(base, apiKey, options.connections(), List.copyOf(accounts))) {
      long t0 = System.nanoTime();
      long end = t0 + options.purgeSeconds() * 1_000_000_000L;
      while (System.nanoTime() < end) {
        Thread.sleep(5_000);
        samples.add(
            new long[] {
              Math.round((System.nanoTime() - t0) / 1e9),
              jdbc.sql("SELECT count(*) FROM once.idempotency_key").query(Long.class).single(),
              jdbc.sql("SELECT count(*) FROM once.inbox").query(Long.class).single()
            });
      }
      rate = load.counts().created() / ((System.nanoTime() - t0) / 1e9);
    }
    StringBuilder series = new StringBuilder();
    for (long[] s : samples) {
      series.append(f("%ds: %,d keys / %,d inbox; ", s[0], s[1], s[2]));
    }
    int third = samples.size() / 3;
    boolean stable =
        third > 0
            && stable(
                samples.subList(third, 2 * third), samples.subList(2 * third, samples.size()));
    table.goal(
        f(
            "purges keep pace: sizes under %,.0f payments/s for %d s, retentions 5 s, batch %s",
            rate,
            options.purgeSeconds(),
            options.purgeBatchSize() > 0 ? options.purgeBatchSize() : "the shop's"),
        (stable ? "stable" : "growing") + " (" + series.toString().strip() + ")",
        "stable",
        stable);
  }

  private interface Purge {
    int run() throws Exception;
  }

  /**
   * Writes {@code --purge-rows} expired rows with {@code insert}, times one run of {@code purge},
   * and reports what it deleted and what it left ({@code rowsOf}: a table and a filter), which is
   * then deleted.
   */
  private void timedPurge(
      String measure, String insert, Purge purge, String rowsOf, String unit, String interval)
      throws Exception {
    jdbc.sql(insert).param("rows", options.purgeRows()).update();
    long t = System.nanoTime();
    int deleted = purge.run();
    double seconds = (System.nanoTime() - t) / 1e9;
    long left = jdbc.sql("SELECT count(*) FROM " + rowsOf).query(Long.class).single();
    jdbc.sql("DELETE FROM " + rowsOf).update();
    table.reported(
        measure,
        f(
            "deleted %,d in %.1f s (%,.0f %s/s), %,d left for the next run (interval %s)",
            deleted, seconds, deleted / seconds, unit, left, interval));
  }

  /**
   * Whether neither table holds more rows in {@code last} than in {@code middle}, plus a quarter.
   */
  private static boolean stable(List<long[]> middle, List<long[]> last) {
    for (int column = 1; column <= 2; column++) {
      long before = 0;
      for (long[] s : middle) {
        before = Math.max(before, s[column]);
      }
      long after = 0;
      for (long[] s : last) {
        after = Math.max(after, s[column]);
      }
      if (after > before + before / 4 + 100) {
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // Phase kill

  private void killPhase() throws Exception {
    int rows = options.killRows();
    String tag = "kill";
    prefill(tag, rows, null);
    closeShop(); // only the child shops' relays may deliver from here on
    progress("  in-process shop stopped; starting a child shop JVM on the same database");
    List<String> args =
        new ArrayList<>(
            List.of(
                "--shop.admin-token=" + ADMIN,
                "--shop.admin-token-file=" + data.resolve("child-admin-token"),
                "--once.outbox.relay.enabled=true",
                "--logging.level.root=WARN",
                "--spring.main.banner-mode=off"));
    args.addAll(options.commonShopArgs());
    try (PgCounters pg = logIn()) {
      long t = System.nanoTime();
      double startSeconds;
      double restartSeconds;
      long settledAtKill;
      long inFlight;
      long pendingAtKill;
      long pendingRowsAtKill;
      double killedAt;
      Double allSettled = null;
      Double allRows = null;
      long pending = -1;
      long pendingRows = -1;
      try (ChildShopProcess first =
          ChildShopProcess.start(args, logins, data.resolve("child-1.log"))) {
        startSeconds = (System.nanoTime() - t) / 1e9;
        progress(f("  child shop %d healthy in %.1f s", first.pid(), startSeconds));
        pg.row(RELEASE, like(tag));
        Thread.sleep(options.killAfter() * 1000L);
        inFlight = inFlight(pg, tag);
        first.kill();
      }
      long killed = System.nanoTime();
      killedAt = pg.row("SELECT extract(epoch FROM clock_timestamp())::float8")[0];
      pendingAtKill = pg.number(PENDING_PAYMENTS, like(tag));
      pendingRowsAtKill = pendingRows(pg, tag);
      settledAtKill = rows - pendingAtKill;
      progress(
          f(
              "  SIGKILL: %d of %d payments settled, %d rows pending (%d claimed by the killed"
                  + " shop just before); starting it again",
              settledAtKill, rows, pendingRowsAtKill, inFlight));
      try (ChildShopProcess second =
          ChildShopProcess.start(args, logins, data.resolve("child-2.log"))) {
        restartSeconds = (System.nanoTime() - killed) / 1e9;
        progress(
            f(
                "  restarted child shop %d healthy %.1f s after the kill",
                second.pid(), restartSeconds));
        long deadline = killed + Duration.ofSeconds(150).toNanos();
        while (System.nanoTime() < deadline) {
          double since = (System.nanoTime() - killed) / 1e9;
          pending = pg.number(PENDING_PAYMENTS, like(tag));
          if (pending == 0 && allSettled == null) {
            allSettled = since;
          }
          pendingRows = pendingRows(pg, tag);
          if (pendingRows == 0 && pending == 0) {
            allRows = since;
            break;
          }
          Thread.sleep(250); // polling the relay's progress
        }
      }
      double lastSettled =
          pg.row(
                  "SELECT coalesce(extract(epoch FROM max(updated_at))::float8 - ?, 0) FROM payment"
                      + " WHERE id LIKE ? AND status <> 'pending'",
                  killedAt,
                  like(tag))[0];
      boolean met = allRows != null && allRows <= 15;
      table.goal(
          "rows of a killed shop (SIGKILL) redelivered after its restart",
          f(
              "%s after the kill (last payment settled %.1f s after it; child start %.1f s,"
                  + " restart healthy %.1f s after the kill; at the kill %d of %d payments"
                  + " pending, %d rows pending, %s claimed)",
              allRows == null
                  ? f("NOT all: %d payments, %d rows still pending 150 s", pending, pendingRows)
                  : f("all rows delivered %.1f s", allRows),
              lastSettled,
              startSeconds,
              restartSeconds,
              pendingAtKill,
              rows,
              pendingRowsAtKill,
              inFlight < 0 ? "n/a" : String.valueOf(inFlight)),
          "all within 15 s of the kill",
          met);
      progress(f("  all delivered %s s after the kill", allRows));
    }
  }

  /** Rows of a tag claimed under a running lease (today's columns; -1 if they are gone). */
  private static long inFlight(PgCounters pg, String tag) {
    try {
      return pg.number(
          "SELECT count(*) FROM once.outbox WHERE state = 'pending' AND aggregate_id LIKE ?"
              + " AND lease_until > now()",
          like(tag));
    } catch (SQLException e) {
      return -1;
    }
  }

  private static long pendingRows(PgCounters pg, String tag) throws SQLException {
    return pg.number(PENDING_ROWS, like(tag));
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  /** Waits until the outbox backlog is 0: milliseconds it took, or -1 after {@code limit}. */
  private long awaitBacklog(Duration limit, String what) throws InterruptedException {
    long start = System.nanoTime();
    long nextReport = start + 10_000_000_000L;
    while (true) {
      long backlog = outbox.stats().backlog();
      long now = System.nanoTime();
      if (backlog == 0) {
        return (now - start) / 1_000_000;
      }
      if (now - start > limit.toNanos()) {
        progress("  backlog still " + backlog + " after " + limit + " (" + what + ")");
        return -1;
      }
      if (now > nextReport) {
        progress("  backlog " + backlog + " (" + what + ")");
        nextReport = now + 10_000_000_000L;
      }
      Thread.sleep(200);
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return percentile(sorted, 0.5);
  }

  /** Of sorted values; NaN if none. */
  private static double percentile(List<Double> sorted, double p) {
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    return sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * p)));
  }

  private static String rates(List<Double> rates) {
    List<String> out = new ArrayList<>();
    rates.forEach(r -> out.add(f("%.0f", r)));
    return String.join(", ", out);
  }

  private JsonNode post(String path, String bearer, String key, String body) throws Exception {
    return BenchHttp.post(http, base, path, bearer, key, body);
  }

  private void progress(String line) {
    System.out.println(f("[%6.1f s] %s", (System.nanoTime() - started) / 1e9, line));
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException | RuntimeException e) {
      return "n/a";
    }
  }

  private static String cpuModel() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
          .filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).strip())
          .findFirst()
          .orElse("n/a");
    } catch (IOException | RuntimeException e) {
      return "n/a";
    }
  }
}
