package dev.once.verify.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelayRunTest {

  @Test
  void theRelaysWorkersAreWhatTheShopsStartLineSays(@TempDir Path dir) throws Exception {
    Path log =
        Files.writeString(
            dir.resolve("shop-1.log"),
            """
            12:27:56.942 INFO  [main] dev.once.outbox.OutboxRelay - Outbox relay once-relay \
            started: 32 worker(s), types [provider.charge], lease PT10S renewed every PT3.3S
            """);

    assertThat(RelayRun.relayWorkers(log)).isEqualTo("32");
  }

  @Test
  void aLogThatDoesNotSayOrDoesNotExistGivesAQuestionMark(@TempDir Path dir) throws Exception {
    Path quiet = Files.writeString(dir.resolve("shop-1.log"), "Started ShopApplication\n");

    assertThat(RelayRun.relayWorkers(quiet)).isEqualTo("?");
    assertThat(RelayRun.relayWorkers(dir.resolve("none.log"))).isEqualTo("?");
  }
}
