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
 * The README's examples are the code the build compiles and runs (once-test's {@code
 * com.example.wallet}, and the wallet sample of "Use it in your service", {@code samples/wallet}):
 * each block marked {@code <!-- example: path -->} must be that file, character for character.
 */
class ReadmeExampleTest {
  private static final Pattern EXAMPLE =
      Pattern.compile("<!-- example: (\\S+) -->\\n```(?:java|sql)\\n(.*?)```", Pattern.DOTALL);
  private static final String SAMPLE = "samples/wallet/src/main/java/com/example/wallet/";

  @Test
  void everyExampleBlockIsTheFileItNames() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    String readme = Files.readString(root.resolve("README.md"));
    Map<String, String> blocks = new LinkedHashMap<>();
    Matcher matcher = EXAMPLE.matcher(readme);
    while (matcher.find()) {
      blocks.put(matcher.group(1), matcher.group(2));
    }

    assertThat(blocks.keySet())
        .containsExactly(
            SAMPLE + "WalletController.java",
            SAMPLE + "Wallets.java",
            SAMPLE + "WalletCredited.java",
            SAMPLE + "CreditHistory.java",
            "samples/wallet/src/main/resources/db/migration/V1__wallet.sql",
            "once-test/src/test/java/com/example/wallet/WalletApplication.java",
            "once-test/src/test/java/com/example/wallet/WalletIdempotencyTest.java");
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
