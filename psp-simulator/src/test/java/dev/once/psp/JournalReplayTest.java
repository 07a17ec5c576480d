package dev.once.psp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An embedded simulator closed and started again on the same journal forgets nothing. */
class JournalReplayTest {
  private static final List<String> REFERENCES =
      List.of("order-1", "order-2", "order-3", "refund-1", "refund-2", "refund-3", "unknown");

  @TempDir Path dir;
  private final List<PspSimulator> started = new ArrayList<>();

  @AfterEach
  void close() {
    started.forEach(PspSimulator::close);
  }

  private Path journal() {
    return dir.resolve("psp.journal");
  }

  private PspSimulator start() {
    PspSimulator psp = PspSimulator.start(PspSettings.defaults().withJournal(journal()));
    started.add(psp);
    return psp;
  }

  /** Charges, a decline, two effects of one reference, refunds, a replay, faults of each kind. */
  private static Map<String, String> traffic(PspSimulator psp) {
    PspClient client = new PspClient(psp);
    Map<String, String> answers = new LinkedHashMap<>();
    answers.put("k1", client.charge("k1", "order-1", "10.00").body());
    answers.put("k2", client.charge("k2", "order-2", "3.51").body());
    answers.put("k3", client.charge("k3", "order-1", "10.0").body());
    client.charge("k1", "order-1", "10.00");
    answers.put("r1", client.refund("r1", "refund-1", "order-1", "4.00").body());
    answers.put("r2", client.refund("r2", "refund-2", "order-1", "1.52").body());
    answers.put("r3", client.refund("r3", "refund-3", "order-2", "1.00").body());
    client.charge("k1", "order-1", "99.00");
    psp.faults(Faults.NONE.withErrorRate(1));
    client.charge("k4", "order-3", "5.00");
    psp.faults(Faults.NONE.withTimeoutRate(1).withTimeoutMs(0));
    client.charge("k4", "order-3", "5.00");
    psp.faults(Faults.NONE.withLostAnswerRate(1));
    assertThatThrownBy(
            () -> client.postOrThrow("/v1/charges", "k4", PspClient.charge("order-3", "5.00")))
        .isInstanceOf(IOException.class);
    psp.faults(Faults.NONE);
    return answers;
  }

  private static Map<String, ReferenceStats> perReference(PspSimulator psp) {
    Map<String, ReferenceStats> stats = new LinkedHashMap<>();
    REFERENCES.forEach(reference -> stats.put(reference, psp.stats(reference)));
    return stats;
  }

  @Test
  void aRestartRebuildsTheStatsTheKeysAndTheLedgerExactly() {
    PspSimulator first = start();
    Map<String, String> answers = traffic(first);
    Stats stats = first.stats();
    Map<String, ReferenceStats> references = perReference(first);
    first.close();

    PspSimulator second = start();

    assertThat(second.stats()).isEqualTo(stats);
    assertThat(stats).isEqualTo(new Stats(11, 3, 1, 1, 2, 7, 1, 1, 1));
    assertThat(perReference(second)).isEqualTo(references);
    PspClient client = new PspClient(second);
    answers.forEach(
        (key, body) -> {
          HttpResponse<String> replay =
              key.startsWith("k")
                  ? client.charge(key, key.equals("k2") ? "order-2" : "order-1", amountOf(body))
                  : client.refund(key, referenceOf(body), chargeOf(body), amountOf(body));
          assertThat(replay.statusCode()).isEqualTo(201);
          assertThat(replay.body()).as(key).isEqualTo(body);
          assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        });
    HttpResponse<String> lost = client.charge("k4", "order-3", "5.00");
    assertThat(lost.statusCode()).isEqualTo(201);
    assertThat(lost.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(client.charge("k1", "order-1", "12.00").statusCode()).isEqualTo(422);
    assertThat(second.stats().effects()).isEqualTo(stats.effects());
    // order-1's latest charge (10.00) has 4.00 refunded: 6.01 more exceeds it, 6.00 does not.
    assertThat(client.refund("r4", "refund-4", "order-1", "6.01").body())
        .contains("exceeds_charge");
    assertThat(client.refund("r5", "refund-5", "order-1", "6.00").body())
        .contains("\"status\":\"succeeded\"");
  }

  private static String amountOf(String body) {
    return PspClient.json(body).get("amount").stringValue();
  }

  private static String referenceOf(String body) {
    return PspClient.json(body).get("reference").stringValue();
  }

  private static String chargeOf(String body) {
    return PspClient.json(body).get("charge").stringValue();
  }

  @Test
  void aTornLastLineIsIgnoredAndTruncatedAway() throws IOException {
    PspSimulator first = start();
    new PspClient(first).charge("k1", "order-1", "10.00");
    Stats stats = first.stats();
    first.close();
    byte[] complete = Files.readAllBytes(journal());
    Files.write(
        journal(),
        "{\"type\":\"charge\",\"key\":\"k2\",\"lostAn".getBytes(StandardCharsets.UTF_8),
        StandardOpenOption.APPEND);

    PspSimulator second = start();

    assertThat(second.stats()).isEqualTo(stats);
    assertThat(Files.readAllBytes(journal())).isEqualTo(complete);
    HttpResponse<String> k2 = new PspClient(second).charge("k2", "order-2", "1.00");
    assertThat(k2.headers().firstValue("Idempotent-Replayed")).isEmpty();
    second.close();
    assertThat(start().stats().effects()).isEqualTo(2);
  }

  @Test
  void aCorruptCompleteLineStopsTheStartAndChangesNothing() throws IOException {
    PspSimulator first = start();
    PspClient client = new PspClient(first);
    client.charge("k1", "order-1", "10.00");
    client.charge("k2", "order-2", "10.00");
    first.close();
    List<String> lines = new ArrayList<>(Files.readAllLines(journal()));
    lines.add(1, "{\"type\":\"charge\",");
    Files.write(journal(), lines);
    byte[] corrupt = Files.readAllBytes(journal());

    assertThatThrownBy(this::start)
        .isInstanceOf(Journal.CorruptException.class)
        .hasMessageContaining(journal() + " line 2 is corrupt");
    assertThat(Files.readAllBytes(journal())).isEqualTo(corrupt);
  }

  @Test
  void aRecordThatDoesNotFitTheStateStopsTheStart() throws IOException {
    Files.writeString(
        journal(),
        "{\"type\":\"refund\",\"key\":\"r1\",\"lostAnswer\":false,\"chargeId\":\"ch_x\","
            + "\"answer\":{\"id\":\"re_x\",\"reference\":\"refund-1\",\"charge\":\"order-1\","
            + "\"amount\":\"1.00\",\"currency\":\"EUR\",\"status\":\"succeeded\"}}\n");

    assertThatThrownBy(this::start)
        .isInstanceOf(Journal.CorruptException.class)
        .hasMessageContaining("line 1 is corrupt (the refunded charge is not in the journal");
  }

  @Test
  void concurrentRequestsWithOneKeyApplyOnceAndJournalOnce() throws Exception {
    PspSimulator first = start();
    PspClient client = new PspClient(first);
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Integer>> statuses = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        statuses.add(
            threads.submit(
                () -> {
                  go.await();
                  return client.charge("same", "order-1", "10.00").statusCode();
                }));
      }
      client.charge("base", "order-2", "10.00");
      List<Future<String>> refunds = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        String key = "refund-" + i;
        refunds.add(
            threads.submit(
                () -> {
                  go.await();
                  return client.refund(key, key, "order-2", "2.00").body();
                }));
      }
      go.countDown();
      for (Future<Integer> status : statuses) {
        assertThat(status.get()).isIn(201, 409);
      }
      long succeeded = 0;
      for (Future<String> refund : refunds) {
        succeeded += refund.get().contains("\"succeeded\"") ? 1 : 0;
      }
      assertThat(succeeded).isEqualTo(5);
    } finally {
      threads.shutdownNow();
      assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
    Stats stats = first.stats();
    List<ReferenceStats> references = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      references.add(first.stats("refund-" + i));
    }
    first.close();
    assertThat(stats.chargesSucceeded()).isEqualTo(2);
    assertThat(Files.readAllLines(journal()))
        .filteredOn(line -> line.contains("\"key\":\"same\""))
        .hasSize(1);

    PspSimulator second = start();

    assertThat(second.stats()).isEqualTo(stats);
    for (int i = 0; i < 8; i++) {
      assertThat(second.stats("refund-" + i)).isEqualTo(references.get(i));
    }
    assertThat(new PspClient(second).refund("more", "more", "order-2", "0.01").body())
        .contains("exceeds_charge");
  }

  @Test
  void withoutAJournalNothingIsWritten() throws IOException {
    try (PspSimulator psp = PspSimulator.start(PspSettings.defaults())) {
      new PspClient(psp).charge("k1", "order-1", "10.00");
    }
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }
}
