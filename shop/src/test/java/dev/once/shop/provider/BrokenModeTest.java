package dev.once.shop.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.LogCapture;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The broken mode's setting: {@code none} unless set, the documented values taken, anything else
 * refused at start with one line naming the allowed values, and a broken mode announced loudly.
 */
class BrokenModeTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withUserConfiguration(Setting.class);

  @Test
  void noneIsTheDefault() {
    runner.run(context -> assertThat(context.getBean(BrokenMode.class)).isEqualTo(BrokenMode.NONE));
  }

  @Test
  void theDocumentedValuesAreTakenAlsoFromTheEnvironmentAndAnnouncedAsAnError() {
    try (LogCapture logs = LogCapture.start()) {
      runner
          .withInitializer(
              context ->
                  context
                      .getEnvironment()
                      .getPropertySources()
                      .addFirst(
                          new SystemEnvironmentPropertySource(
                              "test-systemEnvironment",
                              Map.of(
                                  "SHOP_TESTING_BROKEN_MODE",
                                  "provider-key-per-attempt",
                                  "SHOP_TESTING_ALLOW_BROKEN_MODE",
                                  "true"))))
          .run(
              context ->
                  assertThat(context.getBean(BrokenMode.class))
                      .isEqualTo(BrokenMode.PROVIDER_KEY_PER_ATTEMPT));
      runner
          .withPropertyValues(
              BrokenMode.PROPERTY + "=mark-delivered-before-call",
              BrokenMode.ALLOW_PROPERTY + "=true")
          .run(
              context ->
                  assertThat(context.getBean(BrokenMode.class))
                      .isEqualTo(BrokenMode.MARK_DELIVERED_BEFORE_CALL));

      assertThat(logs.events())
          .filteredOn(e -> e.getLevel().toString().equals("ERROR"))
          .extracting(e -> e.getFormattedMessage())
          .anyMatch(m -> m.startsWith("BROKEN MODE provider-key-per-attempt: "))
          .anyMatch(m -> m.startsWith("BROKEN MODE mark-delivered-before-call: "))
          .allMatch(m -> m.contains("never in production"));
    }
  }

  @Test
  void noneIsNotAnnounced() {
    try (LogCapture logs = LogCapture.start()) {
      runner.withPropertyValues(BrokenMode.PROPERTY + "=none").run(context -> {});
      assertThat(logs.events()).noneMatch(e -> e.getFormattedMessage().contains("BROKEN MODE"));
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", BrokenMode.ALLOW_PROPERTY + "=false", BrokenMode.ALLOW_PROPERTY + "=no"})
  void aBrokenModeWithoutTheSecondSwitchStopsTheStart(String allow) {
    for (BrokenMode mode :
        new BrokenMode[] {
          BrokenMode.MARK_DELIVERED_BEFORE_CALL, BrokenMode.PROVIDER_KEY_PER_ATTEMPT
        }) {
      ApplicationContextRunner withMode =
          runner.withPropertyValues(BrokenMode.PROPERTY + "=" + mode.value());
      (allow.isEmpty() ? withMode : withMode.withPropertyValues(allow))
          .run(
              context -> {
                assertThat(context).hasFailed();
                assertThat(
                        context.getStartupFailure().getMessage()
                            + rootMessage(context.getStartupFailure()))
                    .contains(BrokenMode.ALLOW_PROPERTY);
              });
    }
  }

  @Test
  void noneNeedsNoSecondSwitch() {
    runner
        .withPropertyValues(BrokenMode.PROPERTY + "=none", BrokenMode.ALLOW_PROPERTY + "=false")
        .run(context -> assertThat(context.getBean(BrokenMode.class)).isEqualTo(BrokenMode.NONE));
  }

  private static String rootMessage(Throwable failure) {
    Throwable t = failure;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return String.valueOf(t.getMessage());
  }

  @Test
  void anUnknownValueStopsTheStartNamingTheAllowedValues() {
    runner
        .withPropertyValues(BrokenMode.PROPERTY + "=skip-everything")
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .hasMessage(
                      "Invalid configuration: shop.testing.broken-mode must be one of none,"
                          + " mark-delivered-before-call, provider-key-per-attempt,"
                          + " commit-offset-before-transaction, but was 'skip-everything'.");
            });
  }

  @Test
  void onlyTheKeyPerAttemptModeChangesTheKey() {
    assertThat(BrokenMode.NONE.key("shop-charge-1")).isEqualTo("shop-charge-1");
    assertThat(BrokenMode.MARK_DELIVERED_BEFORE_CALL.key("shop-charge-1"))
        .isEqualTo("shop-charge-1");
    String first = BrokenMode.PROVIDER_KEY_PER_ATTEMPT.key("shop-charge-1");
    assertThat(first).startsWith("shop-charge-1-attempt-").hasSizeLessThanOrEqualTo(255);
    assertThat(BrokenMode.PROVIDER_KEY_PER_ATTEMPT.key("shop-charge-1")).isNotEqualTo(first);
  }

  /** The setting and the mode bean, as {@link ProviderHandlers} declares them. */
  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(BrokenMode.Setting.class)
  static class Setting {
    @Bean
    BrokenMode brokenMode(BrokenMode.Setting setting) {
      return new ProviderHandlers().brokenMode(setting);
    }
  }
}
