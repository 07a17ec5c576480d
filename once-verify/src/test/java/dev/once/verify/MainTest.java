package dev.once.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.verify.cli.UsageException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 2, unit = TimeUnit.MINUTES) // a connection to a closed port
class MainTest {

  @Test
  void wrongCommandLinesExitWithTwo() {
    assertThat(Main.run(new String[] {})).isEqualTo(2);
    assertThat(Main.run(new String[] {"chaos"})).isEqualTo(2);
    assertThat(Main.run(new String[] {"bench", "--nope"})).isEqualTo(2);
    assertThat(Main.run(new String[] {"fingerprint", "POST"})).isEqualTo(2);
    assertThat(Main.run(new String[] {"kafka"})).as("kafka needs --data").isEqualTo(2);
    assertThat(Main.run(new String[] {"kafka", "--data", "d", "--port", "0"})).isEqualTo(2);
    assertThat(Main.run(new String[] {"kafka", "--data", "d", "--port", "x"})).isEqualTo(2);
    assertThat(Main.run(new String[] {"kafka", "--data", "d", "--controller-port", "9092"}))
        .isEqualTo(2);
    assertThat(Main.run(new String[] {"kafka", "--data", "d", "--nope", "1"})).isEqualTo(2);
    assertThat(Main.run(new String[] {"--help"})).isEqualTo(0);
  }

  @Test
  void aWrongFlagIsOneLineOnStderrNamingTheFlagAndTheValue() {
    assertThat(stderrOf("chaos", "--kills", "20000"))
        .isEqualTo(
            "once-verify chaos: --kills: must be 0 to 10000: 20000"
                + " (see java -jar once-verify.jar chaos --help)"
                + System.lineSeparator());
    assertThat(stderrOf("chaos", "--seed", "a"))
        .contains("'--seed'")
        .contains("'a'")
        .hasLineCount(1);
    assertThat(stderrOf("bench", "--shop-jar", "s", "--bogus", "1"))
        .startsWith("once-verify bench: Unknown option")
        .contains("'--bogus'")
        .hasLineCount(1);
    assertThat(stderrOf("kafka", "--data", "d", "--port", "x"))
        .startsWith("once-verify kafka: --port: not a port number: x")
        .hasLineCount(1);
    assertThat(stderrOf("fingerprint", "POST", "/x", "b.json", "--max-depth", "0"))
        .startsWith(
            "once-verify fingerprint: --max-depth must be a whole number from 1 to 10000: 0")
        .hasLineCount(1);
  }

  @Test
  void theReportsFlagsAreWhatFollowsTheSubcommand() throws UsageException {
    picocli.CommandLine commandLine = Main.commandLine();
    commandLine.parseArgs("chaos", "--kills", "1", "--seed=5");
    dev.once.verify.chaos.ChaosCli chaos = commandLine.getSubcommands().get("chaos").getCommand();
    assertThat(chaos.options().flags()).containsExactly("--kills", "1", "--seed=5");
    assertThat(chaos.options().seed()).isEqualTo(5);
  }

  private static String stderrOf(String... args) {
    java.io.PrintStream saved = System.err;
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      assertThat(Main.run(args)).as(String.join(" ", args)).isEqualTo(2);
    } finally {
      System.setErr(saved);
    }
    return printed.toString(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void eachSubcommandPrintsItsFlagsOnHelp() {
    java.io.PrintStream saved = System.out;
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      for (String sub : new String[] {"bench", "chaos", "fingerprint", "check", "kafka"}) {
        assertThat(Main.run(new String[] {sub, "--help"})).as(sub).isEqualTo(0);
        assertThat(Main.run(new String[] {sub, "-h"})).as(sub).isEqualTo(0);
      }
    } finally {
      System.setOut(saved);
    }
    String text = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(text).as(text).contains("--simulator-kills");
    assertThat(text).as(text).contains("--jdbc-url");
    assertThat(text).as(text).contains("--controller-port");
  }

  @Test
  void anUnreachableDatabaseIsOneLineAndExitOneNotAStackTrace(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path password = java.nio.file.Files.writeString(dir.resolve("pw"), "x\n");
    java.nio.file.Path token = java.nio.file.Files.writeString(dir.resolve("token"), "t\n");
    int closedPort;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    java.io.PrintStream saved = System.err;
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
    int exit;
    try {
      exit =
          Main.run(
              new String[] {
                "chaos",
                "--attach",
                "--shop-url",
                "http://127.0.0.1:1",
                "--simulator-url",
                "http://127.0.0.1:1",
                "--admin-token-file",
                token.toString(),
                "--jdbc-url",
                "jdbc:postgresql://127.0.0.1:" + closedPort + "/shop",
                "--db-user",
                "shop_owner",
                "--db-password-file",
                password.toString(),
                "--out",
                dir.resolve("out").toString()
              });
    } finally {
      System.setErr(saved);
    }
    String err = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(exit).as(err).isEqualTo(1);
    assertThat(err).as(err).startsWith("once-verify: failed: ");
    assertThat(err).as(err).contains("refused");
    assertThat(err.strip().lines().count()).as(err).isEqualTo(1);
  }
}
