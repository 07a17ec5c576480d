package dev.once.shop.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.shop.support.Concurrently;
import dev.once.shop.support.LogCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * The admin token: configured, or generated into an owner-only file when absent and reused from it;
 * refused when too short, when it is not a token the Authorization header parser would ever accept,
 * or when its file is open to other users.
 */
class AdminTokenTest {

  @TempDir Path folder;

  private AdminToken token(String configured) {
    return new AdminToken(configured, file().toString());
  }

  /** In a folder that does not exist yet, so that the shop creates it. */
  private Path file() {
    return folder.resolve("data").resolve("admin-token");
  }

  @Test
  void matchesOnlyTheConfiguredToken() {
    AdminToken token = token("configured-admin-token-1234");
    assertThat(token.matches("configured-admin-token-1234")).isTrue();
    assertThat(token.matches("configured-admin-token-123")).isFalse();
    assertThat(token.matches("")).isFalse();
  }

  @Test
  void generatesAnUnguessableTokenIntoAnOwnerOnlyFileAndLogsOnlyItsPath() throws IOException {
    try (LogCapture logs = LogCapture.start()) {
      AdminToken token = token("");
      assertThat(token.matches("")).isFalse();
      assertThat(token.matches("null")).isFalse();

      String generated = Files.readString(file()).strip();
      assertThat(generated).matches("shop_admin_[A-Za-z0-9_-]{43}");
      assertThat(token.matches(generated)).isTrue();
      assertThat(permissions(file())).isEqualTo("rw-------");
      assertThat(permissions(file().getParent())).isEqualTo("rwx------");
      // Nothing but the file is left behind: the temporary file it was written to is gone.
      try (Stream<Path> files = Files.list(file().getParent())) {
        assertThat(files).containsExactly(file());
      }

      List<String> messages = logs.events().stream().map(e -> e.getFormattedMessage()).toList();
      assertThat(messages).noneMatch(m -> m.contains(generated));
      assertThat(messages).anyMatch(m -> m.contains(file().toAbsolutePath().toString()));
    }
  }

  @Test
  void laterStartsReuseTheGeneratedToken() throws IOException {
    token("");
    String generated = Files.readString(file()).strip();

    AdminToken restarted = token("");

    assertThat(restarted.matches(generated)).isTrue();
    assertThat(Files.readString(file()).strip()).isEqualTo(generated);
  }

  @Test
  void aConfiguredTokenWinsAndNoFileIsWritten() throws IOException {
    token("");
    String generated = Files.readString(file()).strip();

    AdminToken configured = token("configured-admin-token-1234");

    assertThat(configured.matches("configured-admin-token-1234")).isTrue();
    assertThat(configured.matches(generated)).isFalse();
    Files.delete(file());
    token("configured-admin-token-1234");
    assertThat(file()).doesNotExist();
  }

  /** Anyone could have read it, or put their own token there. */
  @Test
  void refusesAFileOtherUsersMayReadWithoutEchoingIt() throws IOException {
    token("");
    String generated = Files.readString(file()).strip();
    Files.setPosixFilePermissions(file(), PosixFilePermissions.fromString("rw-r--r--"));

    assertThatThrownBy(() -> token(""))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(file().toAbsolutePath().toString())
        .hasMessageContaining("chmod 600")
        .hasMessageNotContaining(generated);
  }

  @Test
  void refusesAFileThatHoldsNoValidTokenWithoutEchoingIt() throws IOException {
    token("");
    Files.writeString(file(), "short secret");

    assertThatThrownBy(() -> token(""))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(file().toAbsolutePath().toString())
        .hasMessageNotContaining("short secret");
  }

  @Test
  void refusesASymbolicLinkInPlaceOfTheFile() throws IOException {
    Path elsewhere = Files.writeString(folder.resolve("elsewhere"), "shop_admin_" + "a".repeat(43));
    Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rw-------"));
    Files.createDirectories(file().getParent());
    Files.createSymbolicLink(file(), elsewhere);

    assertThatThrownBy(() -> token("")).isInstanceOf(IllegalStateException.class);
  }

  /** Shops started at once on one folder: one writes the file, all use its token. */
  @Test
  void concurrentStartsAgreeOnOneToken() throws Exception {
    List<AdminToken> tokens = Concurrently.run(8, i -> token(""));
    String inFile = Files.readString(file()).strip();
    assertThat(tokens).allMatch(token -> token.matches(inFile));
  }

  private static String permissions(Path path) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }

  @Test
  void refusesAShortTokenWithoutEchoingIt() {
    assertThatThrownBy(() -> token("short-secret"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(AdminToken.PROPERTY)
        .hasMessageNotContaining("short-secret");
  }

  /** Long enough, but the header parser refuses them: they could never authenticate. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "review!admin!token!123",
        "token with spaces inside",
        "token,with,commas,inside",
        "token\"with\"quotes\"inside",
        "tökén-with-non-ascii-letters",
        "=leading-padding-is-not-a-token",
        "padding=in-the-middle-of-it",
        "token-with-a-tab\tinside-it"
      })
  void refusesATokenThatNoHeaderCanCarryWithoutEchoingIt(String configured) {
    assertThatThrownBy(() -> token(configured))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(AdminToken.PROPERTY)
        .hasMessageNotContaining(configured);
  }

  @Test
  void refusesATokenLongerThanTheHeaderParserReads() {
    String tooLong = "a".repeat(513);
    assertThatThrownBy(() -> token(tooLong))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(AdminToken.PROPERTY)
        .hasMessageNotContaining(tooLong);
  }

  /** Every token that start-up accepts is one that a request can present. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "configured-admin-token-1234",
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~+/",
        "base64-with-padding-AAAAAAAA==",
        "  surrounding-space-is-stripped  "
      })
  void acceptsEveryTokenThatAHeaderCanCarry(String configured) {
    AdminToken token = token(configured);
    MockHttpServletRequest request = new MockHttpServletRequest("POST", "/admin/v1/clients");
    request.addHeader("Authorization", "Bearer " + configured.strip());
    Optional<String> presented = BearerTokens.from(request);
    assertThat(presented).isPresent();
    assertThat(token.matches(presented.get())).isTrue();
  }

  @Test
  void acceptsTheLongestTokenTheHeaderParserReads() {
    String longest = "a".repeat(512) + "==";
    AdminToken token = token(longest);
    MockHttpServletRequest request = new MockHttpServletRequest("POST", "/admin/v1/clients");
    request.addHeader("Authorization", "Bearer " + longest);
    assertThat(BearerTokens.from(request))
        .hasValueSatisfying(t -> assertThat(token.matches(t)).isTrue());
  }

  @Test
  void theShopDoesNotStartWithSuchATokenAndSaysWhichPropertyIsWrong() {
    new ApplicationContextRunner()
        .withUserConfiguration(AdminToken.class)
        .withPropertyValues(AdminToken.PROPERTY + "=review!admin!token!123")
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .hasMessageContaining(AdminToken.PROPERTY)
                  .hasMessageNotContaining("review!admin!token!123");
            });
  }
}
