package dev.once.shop.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * The admin token: configured, generated when absent, refused when too short or when it is not a
 * token the Authorization header parser would ever accept.
 */
class AdminTokenTest {

  @Test
  void matchesOnlyTheConfiguredToken() {
    AdminToken token = new AdminToken("configured-admin-token-1234");
    assertThat(token.matches("configured-admin-token-1234")).isTrue();
    assertThat(token.matches("configured-admin-token-123")).isFalse();
    assertThat(token.matches("")).isFalse();
  }

  @Test
  void generatesAnUnguessableTokenWhenNoneIsConfigured() {
    AdminToken token = new AdminToken("");
    assertThat(token.matches("")).isFalse();
    assertThat(token.matches("null")).isFalse();
  }

  @Test
  void refusesAShortTokenWithoutEchoingIt() {
    assertThatThrownBy(() -> new AdminToken("short-secret"))
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
    assertThatThrownBy(() -> new AdminToken(configured))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(AdminToken.PROPERTY)
        .hasMessageNotContaining(configured);
  }

  @Test
  void refusesATokenLongerThanTheHeaderParserReads() {
    String tooLong = "a".repeat(513);
    assertThatThrownBy(() -> new AdminToken(tooLong))
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
    AdminToken token = new AdminToken(configured);
    MockHttpServletRequest request = new MockHttpServletRequest("POST", "/admin/v1/clients");
    request.addHeader("Authorization", "Bearer " + configured.strip());
    Optional<String> presented = BearerTokens.from(request);
    assertThat(presented).isPresent();
    assertThat(token.matches(presented.get())).isTrue();
  }

  @Test
  void acceptsTheLongestTokenTheHeaderParserReads() {
    String longest = "a".repeat(512) + "==";
    AdminToken token = new AdminToken(longest);
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
