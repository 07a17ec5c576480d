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
    assertEquals(0, Main.run(new String[] {"--help"}));
  }

  @Test
  void eachSubcommandPrintsItsFlagsOnHelp() {
    java.io.PrintStream saved = System.out;
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      for (String sub : new String[] {"bench", "chaos", "fingerprint", "check"}) {
        assertEquals(0, Main.run(new String[] {sub, "--help"}), sub);
        assertEquals(0, Main.run(new String[] {sub, "-h"}), sub);
      }
    } finally {
      System.setOut(saved);
    }
    String text = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
    org.junit.jupiter.api.Assertions.assertTrue(text.contains("--simulator-kills"), text);
    org.junit.jupiter.api.Assertions.assertTrue(text.contains("--jdbc-url"), text);
  }
}
