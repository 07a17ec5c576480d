package dev.once.shop.clients;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;

/** Reads an RFC 6750 bearer token from the one {@code Authorization} header of a request. */
final class BearerTokens {
  /** Most characters before the {@code =} padding that a token may have. */
  static final int MAX_LENGTH = 512;

  /** RFC 6750 b64token; bounded so that an oversized header is refused before it is hashed. */
  private static final Pattern TOKEN =
      Pattern.compile("[A-Za-z0-9\\-._~+/]{1," + MAX_LENGTH + "}=*");

  /** The characters a token may contain, for messages. */
  static final String ALPHABET = "A-Z a-z 0-9 - . _ ~ + /";

  private static final String SCHEME = "bearer ";

  private BearerTokens() {}

  /** The token, or empty if the header is absent, repeated, of another scheme or malformed. */
  static Optional<String> from(HttpServletRequest request) {
    List<String> headers = Collections.list(request.getHeaders(HttpHeaders.AUTHORIZATION));
    if (headers.size() != 1) {
      return Optional.empty();
    }
    String header = headers.get(0);
    if (header.length() <= SCHEME.length()
        || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
      return Optional.empty();
    }
    String token = header.substring(SCHEME.length()).strip();
    return isToken(token) ? Optional.of(token) : Optional.empty();
  }

  /**
   * Whether {@link #from} can ever return {@code token}: 1 to {@value #MAX_LENGTH} characters of
   * {@link #ALPHABET}, then optional {@code =} padding. A secret that fails this can never
   * authenticate.
   */
  static boolean isToken(String token) {
    return TOKEN.matcher(token).matches();
  }
}
