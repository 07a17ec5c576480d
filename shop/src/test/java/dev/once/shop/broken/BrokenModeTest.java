package dev.once.shop.broken;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.LogCapture;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The broken mode's setting: {@code none} unless set, the documented values taken, anything else
 * refused at start with one line naming the allowed values, and a broken mode announced loudly.
 */
class BrokenModeTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withUserConfiguration(BrokenModeConfiguration.class);

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
  void theKeyPerAttemptClientSendsEachRequestWithAKeyOfItsOwnAndKeepsTheRest() {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:1/v1/charges"))
            .header("Idempotency-Key", "shop-charge-1")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .build();

    HttpRequest first = KeyPerAttemptHttpClient.withFreshKey(request);
    HttpRequest second = KeyPerAttemptHttpClient.withFreshKey(request);

    assertThat(first.headers().allValues("Idempotency-Key"))
        .singleElement(InstanceOfAssertFactories.STRING)
        .startsWith("shop-charge-1-attempt-")
        .hasSizeLessThanOrEqualTo(255)
        .isNotEqualTo(second.headers().firstValue("Idempotency-Key").orElseThrow());
    assertThat(first.headers().firstValue("Accept")).contains("application/json");
    assertThat(first.uri()).isEqualTo(request.uri());
    assertThat(first.method()).isEqualTo("POST");
    HttpRequest keyless = HttpRequest.newBuilder(request.uri()).GET().build();
    assertThat(KeyPerAttemptHttpClient.withFreshKey(keyless)).isSameAs(keyless);
  }
}
