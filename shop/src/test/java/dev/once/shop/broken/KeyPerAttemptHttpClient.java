package dev.once.shop.broken;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * {@link BrokenMode#PROVIDER_KEY_PER_ATTEMPT}: an {@link HttpClient} that sends each request with
 * its {@code Idempotency-Key} plus a random suffix, so that a retry is a new request to the
 * provider. Everything else is the wrapped client's.
 */
final class KeyPerAttemptHttpClient extends HttpClient {
  private static final String KEY = "Idempotency-Key";

  private final HttpClient http;

  KeyPerAttemptHttpClient(HttpClient http) {
    this.http = http;
  }

  /** The request with a key of its own. */
  static HttpRequest withFreshKey(HttpRequest request) {
    Optional<String> key = request.headers().firstValue(KEY);
    if (key.isEmpty()) {
      return request;
    }
    return HttpRequest.newBuilder(request, (name, value) -> !name.equalsIgnoreCase(KEY))
        .header(KEY, key.get() + "-attempt-" + UUID.randomUUID())
        .build();
  }

  @Override
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    return http.send(withFreshKey(request), handler);
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    return http.sendAsync(withFreshKey(request), handler);
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request,
      HttpResponse.BodyHandler<T> handler,
      HttpResponse.PushPromiseHandler<T> push) {
    return http.sendAsync(withFreshKey(request), handler, push);
  }

  @Override
  public Optional<CookieHandler> cookieHandler() {
    return http.cookieHandler();
  }

  @Override
  public Optional<Duration> connectTimeout() {
    return http.connectTimeout();
  }

  @Override
  public Redirect followRedirects() {
    return http.followRedirects();
  }

  @Override
  public Optional<ProxySelector> proxy() {
    return http.proxy();
  }

  @Override
  public SSLContext sslContext() {
    return http.sslContext();
  }

  @Override
  public SSLParameters sslParameters() {
    return http.sslParameters();
  }

  @Override
  public Optional<Authenticator> authenticator() {
    return http.authenticator();
  }

  @Override
  public Version version() {
    return http.version();
  }

  @Override
  public Optional<Executor> executor() {
    return http.executor();
  }
}
