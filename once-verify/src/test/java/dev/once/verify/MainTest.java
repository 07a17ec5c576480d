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
}
