package dev.once.shop.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The admin token: configured, generated when absent, refused when too short. */
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
}
