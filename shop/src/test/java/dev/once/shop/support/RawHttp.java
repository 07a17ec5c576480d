package dev.once.shop.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * HTTP/1.1 over a plain socket, for requests that {@link java.net.http.HttpClient} refuses to send
 * ({@code %ZZ} in a query, an encoded backslash, a request line over the header limit): the request
 * line and headers are written exactly as given, with {@code Connection: close}, and the answer is
 * read to the end. Every answer is checked against the shop's OpenAPI description ({@link
 * OpenApiContract}).
 */
public final class RawHttp {
  private final int port;

  public RawHttp(int port) {
    this.port = port;
  }

  /** Sends {@code method target HTTP/1.1} with {@code headers} ("Name: value") and no body. */
  public ShopResponse send(String method, String target, String... headers) {
    return sendWithBody(method, target, null, headers);
  }

  /**
   * As {@link #send(String, String, String...)}, with a body and its Content-Length; fails with an
   * {@link AssertionError} when the answer does not conform to the shop's OpenAPI description.
   */
  public ShopResponse sendWithBody(String method, String target, String body, String... headers) {
    StringBuilder request = new StringBuilder();
    request.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    request.append("Host: localhost:").append(port).append("\r\n");
    request.append("Connection: close\r\n");
    for (String header : headers) {
      request.append(header).append("\r\n");
    }
    byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    if (body != null) {
      request.append("Content-Length: ").append(content.length).append("\r\n");
    }
    request.append("\r\n");
    try (Socket socket = new Socket("localhost", port)) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.UTF_8));
      out.write(content);
      out.flush();
      ShopResponse answer = parse(socket.getInputStream().readAllBytes());
      OpenApiContract.of(port).assertConforms(method, target, answer);
      return answer;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Opens a request that announces a body of {@code announced} bytes, sends only {@code sent}, and
   * closes the connection: a client that goes away while the server reads the body.
   */
  public void abandonBody(
      String method, String target, int announced, String sent, String... headers) {
    StringBuilder request = new StringBuilder();
    request.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    request.append("Host: localhost:").append(port).append("\r\n");
    for (String header : headers) {
      request.append(header).append("\r\n");
    }
    request.append("Content-Length: ").append(announced).append("\r\n\r\n").append(sent);
    try (Socket socket = new Socket("localhost", port)) {
      socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ShopResponse parse(byte[] raw) {
    int headerEnd = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    if (headerEnd < 0) {
      throw new IllegalStateException(
          "no complete answer: " + new String(raw, StandardCharsets.ISO_8859_1));
    }
    String[] lines = new String(raw, 0, headerEnd, StandardCharsets.ISO_8859_1).split("\r\n", -1);
    int status = Integer.parseInt(lines[0].split(" ", 3)[1]);
    Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers
          .computeIfAbsent(lines[i].substring(0, colon).trim(), k -> new ArrayList<>())
          .add(lines[i].substring(colon + 1).trim());
    }
    byte[] body = java.util.Arrays.copyOfRange(raw, headerEnd + 4, raw.length);
    List<String> encoding = headers.get("Transfer-Encoding");
    if (encoding != null && encoding.get(0).toLowerCase(Locale.ROOT).contains("chunked")) {
      body = unchunk(body);
    }
    return new ShopResponse(
        status,
        HttpHeaders.of(headers, (name, value) -> true),
        new String(body, StandardCharsets.UTF_8));
  }

  private static byte[] unchunk(byte[] chunked) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int pos = 0;
    while (true) {
      int lineEnd = indexOf(chunked, pos, "\r\n".getBytes(StandardCharsets.ISO_8859_1));
      String size = new String(chunked, pos, lineEnd - pos, StandardCharsets.ISO_8859_1);
      int length = Integer.parseInt(size.split(";", 2)[0].trim(), 16);
      if (length == 0) {
        return out.toByteArray();
      }
      out.write(chunked, lineEnd + 2, length);
      pos = lineEnd + 2 + length + 2;
    }
  }

  private static int indexOf(byte[] data, byte[] pattern) {
    return indexOf(data, 0, pattern);
  }

  private static int indexOf(byte[] data, int from, byte[] pattern) {
    outer:
    for (int i = from; i <= data.length - pattern.length; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (data[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
