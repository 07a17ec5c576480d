package dev.once.spring.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request wrapper whose parameters are the map {@link #parameters()} gives once, parsed by the
 * wrapper itself instead of the container (which would read the body).
 */
abstract class ParameterMapRequest extends HttpServletRequestWrapper {
  private Map<String, String[]> parameters;

  ParameterMapRequest(HttpServletRequest request) {
    super(request);
  }

  /** The parameters, in order; computed on first use. */
  abstract Map<String, String[]> parameters();

  @Override
  public String getParameter(String name) {
    String[] values = getParameterMap().get(name);
    return values == null || values.length == 0 ? null : values[0];
  }

  @Override
  public String[] getParameterValues(String name) {
    String[] values = getParameterMap().get(name);
    return values == null ? null : values.clone();
  }

  @Override
  public Enumeration<String> getParameterNames() {
    return Collections.enumeration(getParameterMap().keySet());
  }

  @Override
  public synchronized Map<String, String[]> getParameterMap() {
    if (parameters == null) {
      parameters = Collections.unmodifiableMap(parameters());
    }
    return parameters;
  }

  /**
   * Adds the {@code name=value} pairs of a URL-encoded string (a query string or a form body) to
   * {@code into}. Like the container, a pair with a broken %-escape is skipped.
   */
  static void addEncodedPairs(String encoded, Charset charset, Map<String, List<String>> into) {
    for (String pair : encoded.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      try {
        String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), charset);
        String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), charset);
        into.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
      } catch (IllegalArgumentException malformed) {
        // Skipped, not a server error.
      }
    }
  }

  static Map<String, String[]> toArrays(Map<String, List<String>> lists) {
    Map<String, String[]> result = new LinkedHashMap<>();
    lists.forEach((name, values) -> result.put(name, values.toArray(String[]::new)));
    return result;
  }
}
