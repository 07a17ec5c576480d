package dev.once.verify.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartFailureTest {

  @Test
  void theMessageCarriesTheLogsLastLinesSoACiFailureSaysWhy(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("shop-1.log");
    Files.writeString(
        log,
        IntStream.rangeClosed(1, 100).mapToObj(i -> "line " + i).collect(Collectors.joining("\n"))
            + "\nCaused by: java.lang.ClassNotFoundException: dev.example.Gone\n");

    String message = StartFailure.exited("the shop", 1, log).getMessage();

    assertThat(message)
        .startsWith("the shop exited with 1 while starting; see " + log)
        .contains("Caused by: java.lang.ClassNotFoundException: dev.example.Gone")
        .contains("line 100")
        .doesNotContain("line 71\n");
    assertThat(message.lines().filter(l -> l.startsWith("line "))).hasSize(29);
  }

  @Test
  void aMissingOrEmptyLogLeavesTheFirstLineAlone(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("none.log");
    assertThat(StartFailure.exited("psp-simulator", 3, missing).getMessage())
        .isEqualTo("psp-simulator exited with 3 while starting; see " + missing);
    Path empty = Files.createFile(dir.resolve("empty.log"));
    assertThat(StartFailure.exited("psp-simulator", 3, empty).getMessage())
        .isEqualTo("psp-simulator exited with 3 while starting; see " + empty);
  }
}
