package dev.once.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.verify.check.ShopSchemaDatabase;
import dev.once.verify.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code once-verify check} end to end through {@link Main#run}: exit codes, table, report. */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // an embedded PostgreSQL starts
class CheckMainTest {
  private static ShopSchemaDatabase db;

  @TempDir Path folder;

  @BeforeAll
  static void start() throws Exception {
    db = ShopSchemaDatabase.shared();
  }

  @Test
  void aConsistentShopExitsZeroWithATableAndAReport() throws Exception {
    Path report = folder.resolve("out/check.json");
    Run run =
        checkAsApplication(
            db.newDatabase(),
            "--password",
            db.applicationPassword(),
            "--report",
            report.toString());
    assertThat(run.exit).as(run.toString()).isEqualTo(0);
    assertThat(run.out)
        .as(run.out)
        .matches("(?s)invariant\\s+result\\s+checked\\s+violations\\s+examples\n.*");
    assertThat(run.out).as(run.out).matches("(?s).*\naccount-balance\\s+PASS\\s+2\\s+0\n.*");
    assertThat(run.out).as(run.out).contains("PASS: all 12 invariants hold");
    String json = Files.readString(report);
    JsonNode tree = Json.mapper().readTree(json);
    assertThat(tree.path("result").stringValue()).as(json).isEqualTo("PASS");
    assertThat(invariant(tree, "stock"))
        .as(json)
        .isEqualTo(
            Json.mapper()
                .readTree(
                    "{\"id\": \"stock\", \"description\": \"available + reserved = initial +"
                        + " restocked, both >= 0, reserved = sum of held\", \"status\": \"PASS\","
                        + " \"checked\": 2, \"violations\": 0, \"examples\": []}"));
  }

  @Test
  void readsThePasswordFromAFile() throws Exception {
    Path password =
        Files.writeString(folder.resolve("app.password"), db.applicationPassword() + "\n");
    Run run = checkAsApplication(db.newDatabase(), "--password-file", password.toString());
    assertThat(run.exit).as(run.toString()).isEqualTo(0);
    assertThat(run("check", "--jdbc-url", "jdbc:postgresql://x/y", "--password-file", "/nope").exit)
        .isEqualTo(2);
  }

  @Test
  void aViolationExitsOneAndNamesTheRow() throws Exception {
    String url = db.newDatabase();
    try (Connection c = ShopSchemaDatabase.connectUrl(url);
        Statement s = c.createStatement()) {
      s.execute("UPDATE account SET balance = balance + 1 WHERE id = 'acc-1'");
    }
    Path report = folder.resolve("check.json");
    Run run = checkAsSuperuser(url, "--report", report.toString());
    assertThat(run.exit).as(run.toString()).isEqualTo(1);
    assertThat(run.out)
        .as(run.out)
        .matches("(?s).*\naccount-balance\\s+FAIL\\s+2\\s+1\\s+acc-1\n.*");
    assertThat(run.out).as(run.out).contains("FAIL: 1 of 12 invariants violated");
    String json = Files.readString(report);
    JsonNode tree = Json.mapper().readTree(json);
    assertThat(tree.path("result").stringValue()).as(json).isEqualTo("FAIL");
    JsonNode balance = invariant(tree, "account-balance");
    assertThat(balance.path("violations").asInt()).as(json).isEqualTo(1);
    assertThat(balance.path("examples").get(0).stringValue()).as(json).isEqualTo("acc-1");
    assertThat(balance.path("examples").size()).as(json).isEqualTo(1);
  }

  @Test
  void deadOutboxRowsAreAWarningUnderAllowDead() throws Exception {
    String url = db.newDatabase();
    try (Connection c = ShopSchemaDatabase.connectUrl(url);
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO once.outbox (message_id, type, aggregate_id, payload, state, attempts,"
              + " next_attempt_at, created_at) VALUES (gen_random_uuid(), 'poison', 'x', '{}',"
              + " 'dead', 5, now(), now())");
    }
    Run strict = checkAsSuperuser(url);
    assertThat(strict.exit).as(strict.toString()).isEqualTo(1);
    assertThat(strict.out)
        .as(strict.out)
        .matches("(?s).*\noutbox-no-dead\\s+FAIL\\s+4\\s+1\\s+4\n.*");

    Run allowed = checkAsSuperuser(url, "--allow-dead");
    assertThat(allowed.exit).as(allowed.toString()).isEqualTo(0);
    assertThat(allowed.out)
        .as(allowed.out)
        .matches("(?s).*\noutbox-no-dead\\s+WARN\\s+4\\s+1\\s+4\n.*");
    assertThat(allowed.out)
        .as(allowed.out)
        .contains("PASS: all 12 invariants hold (1 with allowed violations)");
  }

  @Test
  void wrongCommandLinesExitTwoWithOneLineOnStderr() throws Exception {
    Run missing = run("check");
    assertThat(missing.exit).isEqualTo(2);
    assertThat(missing.err)
        .isEqualTo(
            "once-verify check: --jdbc-url is required"
                + " (see java -jar once-verify.jar check --help)"
                + System.lineSeparator());
    assertThat(missing.out).isEqualTo("");
    Run mysql = run("check", "--jdbc-url", "jdbc:mysql://localhost/x");
    assertThat(mysql.err)
        .as("names the flag and the value")
        .startsWith(
            "once-verify check: --jdbc-url must start with jdbc:postgresql: jdbc:mysql://localhost/x");

    assertThat(run("check", "--jdbc-url").exit).isEqualTo(2);
    assertThat(run("check", "--jdbc-url", "jdbc:postgresql://localhost/x", "--nope").exit)
        .isEqualTo(2);
    assertThat(run("check", "--jdbc-url", "jdbc:mysql://localhost/x").exit).isEqualTo(2);
    assertThat(run("check", "--jdbc-url", "jdbc:postgresql://localhost/x", "--user").exit)
        .isEqualTo(2);

    Run help = run("check", "--help");
    assertThat(help.exit).isEqualTo(0);
    assertThat(help.out).as(help.out).contains("--allow-dead");
  }

  @Test
  void anUnreachableDatabaseExitsOne() throws Exception {
    Run run = run("check", "--jdbc-url", "jdbc:postgresql://localhost:1/shop?connectTimeout=5");
    assertThat(run.exit).as(run.toString()).isEqualTo(1);
    assertThat(run.err).as(run.err).contains("cannot read the database");
  }

  private record Run(int exit, String out, String err) {}

  /** {@code check} on {@code url} as the superuser {@code postgres}, then {@code more}. */
  private static Run checkAsSuperuser(String url, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "check",
                "--jdbc-url",
                url,
                "--user",
                "postgres",
                "--password",
                db.superuserPassword()));
    args.addAll(List.of(more));
    return run(args.toArray(String[]::new));
  }

  /**
   * {@code check} on {@code url} as the shop's application role, its password as {@code more} says.
   */
  private static Run checkAsApplication(String url, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of("check", "--jdbc-url", url, "--user", ShopSchemaDatabase.APPLICATION));
    args.addAll(List.of(more));
    return run(args.toArray(String[]::new));
  }

  private static Run run(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    int exit;
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      exit = Main.run(args);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return new Run(
        exit,
        outBytes.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"),
        errBytes.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"));
  }

  /** The invariant {@code id} of a check report. */
  private static JsonNode invariant(JsonNode report, String id) {
    for (JsonNode invariant : report.path("invariants")) {
      if (id.equals(invariant.path("id").stringValue())) {
        return invariant;
      }
    }
    throw new AssertionError("no invariant " + id + " in " + report);
  }
}
