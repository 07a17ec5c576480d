package dev.once.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The documented examples are the code the build compiles and runs: the README's is the wallet
 * sample, {@code samples/wallet}, and docs/testing.md's is once-test's {@code com.example.wallet};
 * each block marked {@code <!-- example: path -->} must be that file, character for character.
 */
class ReadmeExampleTest {
  private static final Pattern EXAMPLE =
      Pattern.compile("<!-- example: (\\S+) -->\\n```(?:java|sql)\\n(.*?)```", Pattern.DOTALL);
  private static final String SAMPLE = "samples/wallet/src/main/java/com/example/wallet/";

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @Test
  void theReadmesExampleIsTheWalletSample() throws IOException {
    assertBlocksAreTheirFiles(
        "README.md",
        SAMPLE + "WalletController.java",
        SAMPLE + "Wallets.java",
        SAMPLE + "WalletCredited.java",
        SAMPLE + "CreditHistory.java",
        "samples/wallet/src/main/resources/db/migration/V1__wallet.sql");
  }

  @Test
  void theTestKitsExampleIsOnceTestsWallet() throws IOException {
    assertBlocksAreTheirFiles(
        "docs/testing.md",
        "once-test/src/test/java/com/example/wallet/WalletApplication.java",
        "once-test/src/test/java/com/example/wallet/WalletIdempotencyTest.java");
  }

  /**
   * {@code document}'s example blocks name exactly {@code paths}, in order, and are those files.
   */
  private static void assertBlocksAreTheirFiles(String document, String... paths)
      throws IOException {
    Path root = ROOT;
    Map<String, String> blocks = new LinkedHashMap<>();
    Matcher matcher = EXAMPLE.matcher(Files.readString(root.resolve(document)));
    while (matcher.find()) {
      blocks.put(matcher.group(1), matcher.group(2));
    }

    assertThat(blocks.keySet()).as(document).containsExactly(paths);
    blocks.forEach(
        (path, block) -> {
          try {
            assertThat(block).as(path).isEqualTo(Files.readString(root.resolve(path)));
          } catch (IOException e) {
            throw new AssertionError("cannot read " + path, e);
          }
        });
  }
}
