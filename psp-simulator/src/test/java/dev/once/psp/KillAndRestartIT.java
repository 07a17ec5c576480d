package dev.once.psp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The simulator as its own JVM, SIGKILLed and started again on the same journal. */
@Timeout(120)
class KillAndRestartIT {
  private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+) \\(port");
  private static final List<String> PATHS =
      List.of(
          "/v1/stats",
          "/v1/stats/references/order-1",
          "/v1/stats/references/order-2",
          "/v1/stats/references/order-3",
          "/v1/stats/references/refund-1",
          "/v1/stats/references/refund-2");

  @TempDir Path dir;
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void killLeftovers() throws InterruptedException {
    for (Process process : processes) {
      process.destroyForcibly();
      process.waitFor();
    }
  }

  /** Runs {@code java -cp <this classpath> PspSimulator --port 0 --journal JOURNAL}. */
  private Process run(Path journal) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                PspSimulator.class.getName(),
                "--port",
                "0",
                "--journal",
                journal.toString())
            .redirectErrorStream(true)
            .start();
    processes.add(process);
    return process;
  }

  /** Starts the simulator on {@code journal}; waits for its "listening" log line and /health. */
  private PspClient start(Path journal) throws IOException {
    Process process = run(journal);
    BufferedReader output =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder seen = new StringBuilder();
    for (String line = output.readLine(); line != null; line = output.readLine()) {
      seen.append(line).append('\n');
      Matcher listening = LISTENING.matcher(line);
      if (listening.find()) {
        drain(output);
        PspClient client = new PspClient(URI.create(listening.group(1)));
        assertThat(client.get("/health").statusCode()).isEqualTo(200);
        return client;
      }
    }
    return fail("the simulator exited before listening:\n" + seen);
  }

  /** Keeps reading the child's output so that it never blocks on a full pipe. */
  private static void drain(BufferedReader output) {
    Thread thread =
        new Thread(
            () -> {
              try {
                while (output.readLine() != null) {
                  // discarded
                }
              } catch (IOException e) {
                // the child is gone
              }
            },
            "psp-child-output");
    thread.setDaemon(true);
    thread.start();
  }

  private void kill() throws InterruptedException {
    Process process = processes.get(processes.size() - 1);
    process.destroyForcibly();
    process.waitFor();
  }

  private static Map<String, String> stats(PspClient client) {
    Map<String, String> stats = new LinkedHashMap<>();
    PATHS.forEach(path -> stats.put(path, client.get(path).body()));
    return stats;
  }

  @Test
  void aSigkilledSimulatorRestartsOnItsJournalWithEverythingItAnswered() throws Exception {
    Path journal = dir.resolve("psp.journal");
    PspClient first = start(journal);
    String k1 = first.charge("k1", "order-1", "10.00").body();
    first.charge("k2", "order-2", "7.51");
    first.charge("k3", "order-1", "10.00");
    assertThat(first.charge("k1", "order-1", "10.00").body()).isEqualTo(k1);
    String r1 = first.refund("r1", "refund-1", "order-1", "4.00").body();
    first.refund("r2", "refund-2", "order-1", "1.52");
    first.put(
        "/v1/faults",
        "{\"latencyMs\":0,\"errorRate\":0.0,\"timeoutRate\":0.0,\"lostAnswerRate\":1.0,"
            + "\"timeoutMs\":30000}");
    assertThatThrownBy(
            () -> first.postOrThrow("/v1/charges", "k4", PspClient.charge("order-3", "5.00")))
        .isInstanceOf(IOException.class);
    Map<String, String> before = stats(first);
    assertThat(before.get("/v1/stats"))
        .isEqualTo(
            "{\"requests\":7,\"charges\":{\"succeeded\":3,\"declined\":1},"
                + "\"refunds\":{\"succeeded\":1,\"declined\":1},\"effects\":6,"
                + "\"faults\":{\"errors\":0,\"timeouts\":0,\"lostAnswers\":1}}");

    kill();
    PspClient second = start(journal);

    assertThat(stats(second)).isEqualTo(before);
    assertThat(second.get("/v1/faults").body()).contains("\"lostAnswerRate\":0.0");
    HttpResponse<String> again = second.charge("k1", "order-1", "10.00");
    assertThat(again.body()).isEqualTo(k1);
    assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(second.refund("r1", "refund-1", "order-1", "4.00").body()).isEqualTo(r1);
    HttpResponse<String> lost = second.charge("k4", "order-3", "5.00");
    assertThat(lost.statusCode()).isEqualTo(201);
    assertThat(lost.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    HttpResponse<String> reused = second.charge("k1", "order-1", "11.00");
    assertThat(reused.statusCode()).isEqualTo(422);
    assertThat(reused.body()).contains("idempotency-key-reused");
    assertThat(PspClient.json(second.get("/v1/stats").body()).get("effects").asLong()).isEqualTo(6);

    HttpResponse<String> fresh = second.charge("k5", "order-5", "3.00");
    assertThat(fresh.statusCode()).isEqualTo(201);
    assertThat(fresh.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(PspClient.json(second.get("/v1/stats").body()).get("effects").asLong()).isEqualTo(7);

    Map<String, String> beforeSecondKill = stats(second);
    kill();
    assertThat(stats(start(journal))).isEqualTo(beforeSecondKill);
  }

  @Test
  void aCorruptJournalStopsTheStartWithOneClearLineAndStatus1() throws Exception {
    Path journal = dir.resolve("psp.journal");
    Files.writeString(journal, "{\"type\":\"charge\"}\n");

    Process process = run(journal);
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(process.waitFor()).isEqualTo(1);
    assertThat(output)
        .startsWith("psp-simulator: journal " + journal + " line 1 is corrupt (")
        .doesNotContain("\tat ")
        .doesNotContain("listening");
  }

  @Test
  void aJournalInAMissingDirectoryIsAUsageErrorWithStatus2() throws Exception {
    Process process = run(dir.resolve("missing/psp.journal"));
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(process.waitFor()).isEqualTo(2);
    assertThat(output).contains("--journal must be in an existing directory").contains("Usage:");
  }
}
