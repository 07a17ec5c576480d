package dev.once.shop.clients;

import dev.once.shop.web.Ids;
import java.security.MessageDigest;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The admin token that guards {@code /admin}: property {@value #PROPERTY} (environment variable
 * {@code SHOP_ADMIN_TOKEN}); when it is unset, a random token is generated at start and logged
 * once, so that a fresh checkout can be used at once. A configured token must be one that {@link
 * BearerTokens} can read from a header, or the shop refuses to start (a token that passed start-up
 * but could never authenticate would lock the operator out). Comparison runs in constant time so
 * that the answer's timing does not reveal how much of a guess was right. Immutable and
 * thread-safe.
 */
@Component
public class AdminToken {
  /** The property that sets the token. */
  public static final String PROPERTY = "shop.admin-token";

  /** Shortest accepted configured token: shorter ones are guessable. */
  static final int MIN_LENGTH = 16;

  private static final Logger log = LoggerFactory.getLogger(AdminToken.class);

  private final byte[] tokenHash;

  public AdminToken(@Value("${" + PROPERTY + ":}") String configured) {
    String token;
    if (configured == null || configured.isBlank()) {
      token =
          "shop_admin_"
              + Base64.getUrlEncoder().withoutPadding().encodeToString(Ids.randomBytes(32));
      log.warn(
          "No admin token is configured ({} / SHOP_ADMIN_TOKEN), so this run generated one; use"
              + " 'Authorization: Bearer {}' on /admin, and set SHOP_ADMIN_TOKEN to keep a token"
              + " across restarts.",
          PROPERTY,
          token);
    } else {
      token = configured.strip();
      if (token.length() < MIN_LENGTH) {
        // The value itself is a secret: name the property and the rule, not the value.
        throw new IllegalArgumentException(
            "Invalid configuration: "
                + PROPERTY
                + " must be at least "
                + MIN_LENGTH
                + " characters long, but has "
                + token.length()
                + ".");
      }
      if (!BearerTokens.isToken(token)) {
        // Checked with the rule of the header parser: any other token could never authenticate.
        throw new IllegalArgumentException(
            "Invalid configuration: "
                + PROPERTY
                + " must be a bearer token (RFC 6750) that the Authorization header can carry: at"
                + " most "
                + BearerTokens.MAX_LENGTH
                + " of the characters "
                + BearerTokens.ALPHABET
                + ", optionally followed by '=' padding; the configured value has "
                + token.length()
                + " characters and is not such a token.");
      }
    }
    this.tokenHash = ApiKeys.hash(token);
  }

  /** Whether {@code presented} is the admin token, compared in constant time. */
  public boolean matches(String presented) {
    // Hashing first gives equal-length inputs, so isEqual's time does not depend on the token.
    return MessageDigest.isEqual(tokenHash, ApiKeys.hash(presented));
  }
}
