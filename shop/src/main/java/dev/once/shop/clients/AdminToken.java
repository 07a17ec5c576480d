package dev.once.shop.clients;

import dev.once.embedded.secrets.SecretFile;
import dev.once.shop.persistence.Ids;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The admin token that guards {@code /admin}: property {@value #PROPERTY} (environment variable
 * {@code SHOP_ADMIN_TOKEN}). When it is unset, the token is read from the file {@value
 * #FILE_PROPERTY} (default {@value #DEFAULT_FILE}), and on the first start generated into it, with
 * permissions that let only the user running the shop read it (see {@link SecretFile}). The token
 * itself is never logged, only where to find it: logs are read by more people than the operator,
 * and kept longer than a token should live.
 *
 * <p>The file is reused on later starts rather than regenerated: scripts and the README's commands
 * keep working across restarts, and a regenerated token would add nothing against someone who can
 * read the file, since they could read the new one as well (and the database files next to it).
 * Deleting the file makes the next start generate a new token.
 *
 * <p>A configured token must be one that {@link BearerTokens} can read from a header, or the shop
 * refuses to start (a token that passed start-up but could never authenticate would lock the
 * operator out). Comparison runs in constant time so that the answer's timing does not reveal how
 * much of a guess was right. Immutable and thread-safe.
 */
@Component
public class AdminToken {
  /** The property that sets the token. */
  public static final String PROPERTY = "shop.admin-token";

  /** The property that names the file of the generated token. */
  public static final String FILE_PROPERTY = "shop.admin-token-file";

  /** Where the generated token is kept by default, next to the embedded database's data. */
  public static final String DEFAULT_FILE = "data/admin-token";

  /** Shortest accepted configured token: shorter ones are guessable. */
  static final int MIN_LENGTH = 16;

  private static final Logger log = LoggerFactory.getLogger(AdminToken.class);

  private final byte[] tokenHash;

  public AdminToken(
      @Value("${" + PROPERTY + ":}") String configured,
      @Value("${" + FILE_PROPERTY + ":" + DEFAULT_FILE + "}") String file) {
    String token;
    if (configured == null || configured.isBlank()) {
      token = fromFile(Path.of(file));
    } else {
      token = configured.strip();
      checkConfigured(token);
    }
    this.tokenHash = ApiKeys.hash(token);
  }

  private static String fromFile(Path file) {
    Path path = file.toAbsolutePath().normalize();
    SecretFile.Loaded loaded =
        SecretFile.readOrCreate(
            path,
            () ->
                "shop_admin_"
                    + Base64.getUrlEncoder().withoutPadding().encodeToString(Ids.randomBytes(32)),
            token -> token.length() >= MIN_LENGTH && BearerTokens.isToken(token),
            "admin token",
            "Run 'chmod 600 "
                + path
                + "' if only you ever had access to it, delete it to have a new token generated,"
                + " or set "
                + PROPERTY
                + " (SHOP_ADMIN_TOKEN); "
                + FILE_PROPERTY
                + " names the file.");
    // The path, never the token: whoever may use the token can read the file.
    log.info(
        "No admin token is configured ({} / SHOP_ADMIN_TOKEN): {} {}, readable only by this"
            + " user. Use it as: ADMIN=$(cat '{}') and 'Authorization: Bearer $ADMIN' on /admin."
            + " Delete the file to get a new token.",
        PROPERTY,
        loaded.created() ? "generated one into" : "using the one generated earlier in",
        loaded.file(),
        loaded.file());
    return loaded.secret();
  }

  private static void checkConfigured(String token) {
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

  /** Whether {@code presented} is the admin token, compared in constant time. */
  public boolean matches(String presented) {
    // Hashing first gives equal-length inputs, so isEqual's time does not depend on the token.
    return MessageDigest.isEqual(tokenHash, ApiKeys.hash(presented));
  }
}
