package dev.once.verify.relay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.verify.cli.Cli;
import dev.once.verify.harness.ChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code relay} on the real shop jar with tiny sizes: phases relay, kill and purge, each of which
 * must produce its rows with real values (no "phase failed"). Timing goals are not asserted (a slow
 * machine may miss them); the counts are. Fails when the shop's jar is missing: a benchmark that
 * did not run proves nothing.
 */
class RelayCommandIT {
  private static final Path SHOP = Path.of("../shop/target/shop.jar");

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void relayKillAndPurgeOnTheShopJar(@TempDir Path out) throws Exception {
    assertThat(SHOP)
        .as(
            "the shop's jar ("
                + SHOP.toAbsolutePath()
                + "); build it first: ./mvnw -q -pl shop -am package -DskipTests")
        .isRegularFile();
    RelayOptions options =
        Cli.parse(
                new RelayCli(),
                "--shop-jar",
                SHOP.toString(),
                "--phases",
                "relay,kill,purge",
                "--rows",
                "300",
                "--kill-rows",
                "300",
                "--kill-after",
                "1",
                "--purge-rows",
                "1000",
                "--purge-seconds",
                "15",
                "--seconds",
                "3",
                "--warmup",
                "1",
                "--connections",
                "4",
                // C1 alone, as chaos runs its shops: they start in about half the CPU time; the
                // table's figures are not a deployed shop's, which this test does not assert.
                "--shop-jvm",
                ChildProcess.QUICK_START,
                "--out",
                out.toString())
            .options();

    int exit = new RelayCommand(options).run();

    assertThat(exit).isZero();
    List<String> rows = tableRows(out);
    assertThat(rows).noneMatch(r -> r.contains("phase failed"));
    assertThat(row(rows, "relay alone: 300 provider.charge rows"))
        .contains("300 payments settled in");
    assertThat(row(rows, "commits per delivered row")).contains("commits /");
    assertThat(row(rows, "row writes per delivered row, once.outbox")).contains("ins ");
    assertThat(row(rows, "row writes per delivered row, once.inbox")).contains("ins ");
    assertThat(row(rows, "rows of a killed shop (SIGKILL)"))
        .contains("all rows delivered")
        .contains("of 300 payments pending");
    assertThat(row(rows, "key purge, one run on 1,000 expired keys"))
        .contains("deleted 1,000 in")
        .contains(", 0 left for the next run");
    assertThat(row(rows, "inbox purge, one run on 1,000 old records"))
        .contains("deleted 1,000 in")
        .contains(", 0 left for the next run");
    assertThat(row(rows, "purges keep pace")).containsPattern("\\| (stable|growing) \\(");
  }

  /** The table rows of the one relay-*.md written. */
  private static List<String> tableRows(Path out) throws Exception {
    List<Path> files;
    try (Stream<Path> list = Files.list(out)) {
      files = list.filter(p -> p.getFileName().toString().matches("relay-.*\\.md")).toList();
    }
    assertThat(files).hasSize(1);
    return Files.readAllLines(files.get(0)).stream().filter(l -> l.startsWith("| ")).toList();
  }

  private static String row(List<String> rows, String measure) {
    return rows.stream()
        .filter(r -> r.startsWith("| " + measure))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row '" + measure + "' in " + rows));
  }
}
