package dev.once.spring.web;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Serves a body that the filter already read (to fingerprint it) to the handler, as many times as
 * asked. The container can no longer read the body itself, so request parameters of an {@code
 * application/x-www-form-urlencoded} body are parsed here from the buffered bytes.
 *
 * <p>Asynchronous processing is refused: the request's transaction is bound to the filter's thread
 * and must end before the filter returns, so an async handler ({@code Callable}, {@code
 * DeferredResult}, ...) would write outside it and its answer could not be stored. Such a handler
 * fails, the transaction rolls back and the key stays free.
 */
final class CachedBodyRequest extends ParameterMapRequest {
  private final byte[] body;

  CachedBodyRequest(HttpServletRequest request, byte[] body) {
    super(request);
    this.body = body;
  }

  @Override
  public ServletInputStream getInputStream() {
    ByteArrayInputStream in = new ByteArrayInputStream(body);
    return new ServletInputStream() {
      @Override
      public boolean isFinished() {
        return in.available() == 0;
      }

      @Override
      public boolean isReady() {
        return true;
      }

      @Override
      public void setReadListener(ReadListener listener) {
        throw new UnsupportedOperationException("the body is already buffered");
      }

      @Override
      public int read() {
        return in.read();
      }

      @Override
      public int read(byte[] b, int off, int len) {
        return in.read(b, off, len);
      }
    };
  }

  @Override
  public BufferedReader getReader() {
    String encoding = getCharacterEncoding();
    Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
    return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), charset));
  }

  @Override
  public boolean isAsyncSupported() {
    return false;
  }

  @Override
  public AsyncContext startAsync() {
    throw asyncRefused();
  }

  @Override
  public AsyncContext startAsync(ServletRequest request, ServletResponse response) {
    throw asyncRefused();
  }

  private static IllegalStateException asyncRefused() {
    return new IllegalStateException(
        "Idempotent endpoints must answer synchronously: the key, the handler's writes and the"
            + " answer commit in one transaction on the request thread");
  }

  /** Query parameters as the container parsed them, then those of a form body, in order. */
  @Override
  Map<String, String[]> parameters() {
    Map<String, List<String>> merged = new LinkedHashMap<>();
    getRequest()
        .getParameterMap()
        .forEach((name, values) -> merged.put(name, new ArrayList<>(List.of(values))));
    if (isForm(getContentType())) {
      String encoding = getCharacterEncoding();
      Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
      addEncodedPairs(new String(body, StandardCharsets.ISO_8859_1), charset, merged);
    }
    return toArrays(merged);
  }

  private static boolean isForm(String contentType) {
    return contentType != null
        && contentType.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded");
  }

  @Override
  public int getContentLength() {
    return body.length;
  }

  @Override
  public long getContentLengthLong() {
    return body.length;
  }
}
