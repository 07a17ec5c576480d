package dev.once.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.once.verify.check.ShopSchemaDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code once-verify check} end to end through {@link Main#run}: exit codes, table, report. */
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
        run(
            "check",
            "--jdbc-url",
            db.newDatabase(),
            "--user",
            ShopSchemaDatabase.APPLICATION,
            "--password",
            db.applicationPassword(),
            "--report",
            report.toString());
    assertEquals(0, run.exit, run.toString());
    assertTrue(
        run.out.matches("(?s)invariant\\s+result\\s+checked\\s+violations\\s+examples\n.*"),
        run.out);
    assertTrue(run.out.matches("(?s).*\naccount-balance\\s+PASS\\s+2\\s+0\n.*"), run.out);
    assertTrue(run.out.contains("PASS: all 12 invariants hold"), run.out);
    String json = Files.readString(report);
    assertTrue(json.contains("\"result\": \"PASS\""), json);
    assertTrue(
        json.contains(
            "{\"id\": \"stock\", \"description\": \"available + reserved = initial + restocked,"
                + " both >= 0, reserved = sum of held\", \"status\": \"PASS\", \"checked\": 2,"
                + " \"violations\": 0, \"examples\": []}"),
        json);
  }

  @Test
  void readsThePasswordFromAFile() throws Exception {
    Path password =
        Files.writeString(folder.resolve("app.password"), db.applicationPassword() + "\n");
    Run run =
        run(
            "check",
            "--jdbc-url",
            db.newDatabase(),
            "--user",
            ShopSchemaDatabase.APPLICATION,
            "--password-file",
            password.toString());
    assertEquals(0, run.exit, run.toString());
    assertEquals(
        2, run("check", "--jdbc-url", "jdbc:postgresql://x/y", "--password-file", "/nope").exit);
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
    assertEquals(1, run.exit, run.toString());
    assertTrue(run.out.matches("(?s).*\naccount-balance\\s+FAIL\\s+2\\s+1\\s+acc-1\n.*"), run.out);
    assertTrue(run.out.contains("FAIL: 1 of 12 invariants violated"), run.out);
    String json = Files.readString(report);
    assertTrue(json.contains("\"result\": \"FAIL\""), json);
    assertTrue(json.contains("\"violations\": 1, \"examples\": [\"acc-1\"]"), json);
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
    assertEquals(1, strict.exit, strict.toString());
    assertTrue(strict.out.matches("(?s).*\noutbox-no-dead\\s+FAIL\\s+4\\s+1\\s+4\n.*"), strict.out);

    Run allowed = checkAsSuperuser(url, "--allow-dead");
    assertEquals(0, allowed.exit, allowed.toString());
    assertTrue(
        allowed.out.matches("(?s).*\noutbox-no-dead\\s+WARN\\s+4\\s+1\\s+4\n.*"), allowed.out);
    assertTrue(
        allowed.out.contains("PASS: all 12 invariants hold (1 with allowed violations)"),
        allowed.out);
  }

  @Test
  void wrongCommandLinesExitTwoWithTheUsageOnStderr() throws Exception {
    Run missing = run("check");
    assertEquals(2, missing.exit);
    assertTrue(missing.err.contains("--jdbc-url is required"), missing.err);
    assertTrue(missing.err.contains("Usage: java -jar once-verify.jar"), missing.err);
    assertEquals("", missing.out);

    assertEquals(2, run("check", "--jdbc-url").exit);
    assertEquals(2, run("check", "--jdbc-url", "jdbc:postgresql://localhost/x", "--nope").exit);
    assertEquals(2, run("check", "--jdbc-url", "jdbc:mysql://localhost/x").exit);
    assertEquals(2, run("check", "--jdbc-url", "jdbc:postgresql://localhost/x", "--user").exit);

    Run help = run("check", "--help");
    assertEquals(0, help.exit);
    assertTrue(help.out.contains("--allow-dead"), help.out);
  }

  @Test
  void anUnreachableDatabaseExitsOne() throws Exception {
    Run run = run("check", "--jdbc-url", "jdbc:postgresql://localhost:1/shop?connectTimeout=5");
    assertEquals(1, run.exit, run.toString());
    assertTrue(run.err.contains("cannot read the database"), run.err);
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
}
