package dev.once.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MainTest {

  @Test
  void wrongCommandLinesExitWithTwo() {
    assertEquals(2, Main.run(new String[] {}));
    assertEquals(2, Main.run(new String[] {"chaos"}));
    assertEquals(2, Main.run(new String[] {"bench", "--nope"}));
    assertEquals(2, Main.run(new String[] {"fingerprint", "POST"}));
    assertEquals(2, Main.run(new String[] {"kafka"}), "kafka needs --data");
    assertEquals(2, Main.run(new String[] {"kafka", "--data", "d", "--port", "0"}));
    assertEquals(2, Main.run(new String[] {"kafka", "--data", "d", "--port", "x"}));
    assertEquals(2, Main.run(new String[] {"kafka", "--data", "d", "--controller-port", "9092"}));
    assertEquals(2, Main.run(new String[] {"kafka", "--data", "d", "--nope", "1"}));
    assertEquals(0, Main.run(new String[] {"--help"}));
  }

  @Test
  void eachSubcommandPrintsItsFlagsOnHelp() {
    java.io.PrintStream saved = System.out;
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      for (String sub : new String[] {"bench", "chaos", "fingerprint", "check", "kafka"}) {
        assertEquals(0, Main.run(new String[] {sub, "--help"}), sub);
        assertEquals(0, Main.run(new String[] {sub, "-h"}), sub);
      }
    } finally {
      System.setOut(saved);
    }
    String text = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
    org.junit.jupiter.api.Assertions.assertTrue(text.contains("--simulator-kills"), text);
    org.junit.jupiter.api.Assertions.assertTrue(text.contains("--jdbc-url"), text);
    org.junit.jupiter.api.Assertions.assertTrue(text.contains("--controller-port"), text);
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
    assertEquals(1, exit, err);
    org.junit.jupiter.api.Assertions.assertTrue(err.startsWith("once-verify: failed: "), err);
    org.junit.jupiter.api.Assertions.assertTrue(err.contains("refused"), err);
    org.junit.jupiter.api.Assertions.assertEquals(1, err.strip().lines().count(), err);
  }
}
