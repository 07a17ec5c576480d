package dev.once.shop.clients;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;

/** Reads an RFC 6750 bearer token from the one {@code Authorization} header of a request. */
final class BearerTokens {
  /** RFC 6750 b64token; bounded so that an oversized header is refused before it is hashed. */
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9\\-._~+/]{1,512}=*");

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
    return TOKEN.matcher(token).matches() ? Optional.of(token) : Optional.empty();
  }
}
