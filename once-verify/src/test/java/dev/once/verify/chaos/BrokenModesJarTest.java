package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.verify.cli.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broken mode needs the shop's broken modes jar next to the shop's jar: found there, or refused
 * with a message that names the missing file and how to build it.
 */
class BrokenModesJarTest {
  @TempDir Path folder;

  @Test
  void theJarNextToTheShopsJarIsTaken() throws Exception {
    Path shop = Files.createFile(folder.resolve("shop.jar"));
    Path broken = Files.createFile(folder.resolve(Processes.BROKEN_MODES_JAR));

    assertThat(Processes.brokenModes(shop)).isEqualTo(broken.toAbsolutePath());
  }

  @Test
  void aMissingJarIsAUsageErrorNamingIt() throws Exception {
    Path shop = Files.createFile(folder.resolve("shop.jar"));

    assertThatThrownBy(() -> Processes.brokenModes(shop))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining(folder.resolve("shop-broken-modes.jar").toAbsolutePath().toString())
        .hasMessageContaining("./mvnw package");
  }
}
