package dev.once.shop.broken;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * A deliberately broken mode of the shop ({@value #PROPERTY}, {@code SHOP_TESTING_BROKEN_MODE}). It
 * exists only so that {@code once-verify chaos} can be shown to catch a real violation: each mode
 * other than {@link #NONE} switches off one of Once's guarantees on purpose.
 *
 * <p>It is test code: it lives in the shop's test sources and reaches a running shop only in {@code
 * shop/target/shop-broken-modes.jar}, which {@code once-verify chaos --broken-mode} adds to the
 * shop's class path ({@code loader.path}). A production shop has no such class, so the setting does
 * nothing there. Even with the jar, a mode other than {@code none} stops the start unless a second
 * switch, {@value #ALLOW_PROPERTY}{@code =true} ({@code SHOP_TESTING_ALLOW_BROKEN_MODE}), is set as
 * well.
 */
public enum BrokenMode {
  /** The default: the shop behaves as documented. */
  NONE("none"),

  /**
   * The outbox row is done whatever the provider call did, as if it had been marked delivered
   * before the call: with no final answer (time-out, 5xx, lost answer, refused connection) or a
   * rejection, the payment or refund stays {@code pending} and is never retried. Each provider call
   * makes a single attempt, as the relay's attempts did before once-client retried inside a call.
   */
  MARK_DELIVERED_BEFORE_CALL("mark-delivered-before-call"),

  /**
   * Every provider call sends a fresh Idempotency-Key (the derived key plus a random suffix), so a
   * retry after a lost answer is applied a second time at the provider.
   */
  PROVIDER_KEY_PER_ATTEMPT("provider-key-per-attempt"),

  /**
   * With events through Kafka ({@code SHOP_KAFKA_BOOTSTRAP}), the consumers commit a record's
   * offset before its inbox transaction runs, so a kill between the two loses the event: an order
   * that is never reserved, a payment that never marks its order paid.
   */
  COMMIT_OFFSET_BEFORE_TRANSACTION("commit-offset-before-transaction");

  /** The setting's name. */
  public static final String PROPERTY = "shop.testing.broken-mode";

  /** The second switch that a broken mode needs. */
  public static final String ALLOW_PROPERTY = "shop.testing.allow-broken-mode";

  private static final Logger log = LoggerFactory.getLogger(BrokenMode.class);

  private final String value;

  BrokenMode(String value) {
    this.value = value;
  }

  /** The setting's value for this mode, e.g. {@code mark-delivered-before-call}. */
  public String value() {
    return value;
  }

  /**
   * The mode named {@code value}.
   *
   * @throws IllegalArgumentException naming the setting and the allowed values if there is none
   */
  public static BrokenMode of(String value) {
    for (BrokenMode mode : values()) {
      if (mode.value.equals(value)) {
        return mode;
      }
    }
    throw new IllegalArgumentException(
        "Invalid configuration: "
            + PROPERTY
            + " must be one of "
            + Arrays.stream(values()).map(BrokenMode::value).collect(Collectors.joining(", "))
            + ", but was '"
            + value
            + "'.");
  }

  /** Logs one loud ERROR line when this mode is broken. */
  void announce() {
    if (this != NONE) {
      log.error(
          "BROKEN MODE {}: Once's guarantees are switched off on purpose; for once-verify's"
              + " self-test only, never in production ({}).",
          value,
          PROPERTY);
    }
  }

  /**
   * The setting under {@code shop.testing}.
   *
   * @param brokenMode one of {@code none} (the default), {@code mark-delivered-before-call}, {@code
   *     provider-key-per-attempt} or {@code commit-offset-before-transaction}
   * @param allowBrokenMode must be {@code true} for any mode but {@code none}
   */
  @ConfigurationProperties("shop.testing")
  public record Setting(
      @DefaultValue("none") String brokenMode, @DefaultValue("false") boolean allowBrokenMode) {
    public Setting {
      if (of(brokenMode) != NONE && !allowBrokenMode) {
        throw new IllegalArgumentException(
            "Invalid configuration: "
                + PROPERTY
                + "="
                + brokenMode
                + " switches one of Once's guarantees off on purpose and needs "
                + ALLOW_PROPERTY
                + "=true as well; for once-verify's self-test only, never in production.");
      }
    }

    /** The mode this setting names. */
    public BrokenMode mode() {
      return of(brokenMode);
    }
  }
}
