package dev.once.verify.http;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP/1.1 keep-alive connection on a plain socket, for load generation: the caller writes the
 * request bytes, this sends them in one write and parses the answer (status line, headers, a body
 * framed by {@code Content-Length}, by chunked transfer coding, or by the end of the connection).
 * Cheaper in CPU than {@code java.net.http}, which matters when the load generator shares the cores
 * with the server it measures. It connects lazily and again after the server closed the connection
 * or an exchange failed. Not thread-safe: one thread per connection.
 */
public final class HttpConnection implements Closeable {
  private static final int MAX_LINE = 16 * 1024;

  private final String host;
  private final int port;
  private final int timeoutMillis;
  private final byte[] buffer = new byte[MAX_LINE];
  private final HttpResponse response = new HttpResponse();
  private Socket socket;
  private OutputStream out;
  private InputStream in;
  private int pos;
  private int limit;
  private int connects;

  /**
   * @param timeoutMillis longest wait to connect and for each read of an answer
   */
  public HttpConnection(String host, int port, int timeoutMillis) {
    this.host = host;
    this.port = port;
    this.timeoutMillis = timeoutMillis;
  }

  /**
   * Sends the request and reads its answer. On any failure the connection is closed (the next
   * exchange opens a new one) and the exception is thrown.
   *
   * @return the answer, valid until the next exchange
   * @throws HttpProtocolException if the answer is not well-formed
   */
  public HttpResponse exchange(RequestBytes request) throws IOException {
    return exchange(request.array(), 0, request.length());
  }

  /** As {@link #exchange(RequestBytes)}, for a request in {@code bytes[offset, offset+length)}. */
  public HttpResponse exchange(byte[] bytes, int offset, int length) throws IOException {
    if (socket == null) {
      connect();
    }
    try {
      out.write(bytes, offset, length);
      out.flush();
      read();
      return response;
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** How many times a socket was opened: 1 as long as keep-alive held. */
  public int connects() {
    return connects;
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException e) {
        // Closing a socket we no longer use: nothing to do.
      }
      socket = null;
      out = null;
      in = null;
    }
    pos = 0;
    limit = 0;
  }

  private void connect() throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.connect(new InetSocketAddress(host, port), timeoutMillis);
      s.setSoTimeout(timeoutMillis);
      out = s.getOutputStream();
      in = s.getInputStream();
    } catch (IOException e) {
      s.close();
      throw e;
    }
    socket = s;
    connects++;
  }

  private void read() throws IOException {
    response.reset();
    String statusLine = readLine(true);
    response.status(parseStatus(statusLine));
    long contentLength = -1;
    boolean chunked = false;
    boolean closeAfter = statusLine.startsWith("HTTP/1.0");
    for (String line = readLine(false); !line.isEmpty(); line = readLine(false)) {
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw new HttpProtocolException("malformed header line: '" + printable(line) + "'");
      }
      String name = line.substring(0, colon).trim();
      String value = line.substring(colon + 1).trim();
      response.addHeader(name, value);
      if (name.equalsIgnoreCase("Content-Length")) {
        contentLength = parseLength(value);
      } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
        chunked = value.toLowerCase(java.util.Locale.ROOT).endsWith("chunked");
      } else if (name.equalsIgnoreCase("Connection")) {
        closeAfter = value.equalsIgnoreCase("close");
      }
    }
    int status = response.status();
    if (chunked) {
      readChunked();
    } else if (contentLength >= 0) {
      readBody(contentLength);
    } else if (status == 204 || status == 304 || status < 200) {
      // No body by definition.
    } else {
      readToEnd();
      closeAfter = true;
    }
    if (closeAfter) {
      close();
    }
  }

  private static int parseStatus(String line) throws HttpProtocolException {
    // "HTTP/1.1 201 Created" (the reason phrase may be empty)
    if (!line.startsWith("HTTP/1.") || line.length() < 12 || line.charAt(8) != ' ') {
      throw new HttpProtocolException("malformed status line: '" + printable(line) + "'");
    }
    int status = 0;
    for (int i = 9; i < 12; i++) {
      char c = line.charAt(i);
      if (c < '0' || c > '9') {
        throw new HttpProtocolException("malformed status line: '" + printable(line) + "'");
      }
      status = status * 10 + (c - '0');
    }
    if (line.length() > 12 && line.charAt(12) != ' ') {
      throw new HttpProtocolException("malformed status line: '" + printable(line) + "'");
    }
    return status;
  }

  private static long parseLength(String value) throws HttpProtocolException {
    try {
      long n = Long.parseLong(value);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new HttpProtocolException("malformed Content-Length: '" + printable(value) + "'");
  }

  private void readChunked() throws IOException {
    while (true) {
      String sizeLine = readLine(false);
      int semicolon = sizeLine.indexOf(';');
      String hex = (semicolon >= 0 ? sizeLine.substring(0, semicolon) : sizeLine).trim();
      long size;
      try {
        size = Long.parseLong(hex, 16);
      } catch (NumberFormatException e) {
        throw new HttpProtocolException("malformed chunk size: '" + printable(sizeLine) + "'");
      }
      if (size < 0) {
        throw new HttpProtocolException("malformed chunk size: '" + printable(sizeLine) + "'");
      }
      if (size == 0) {
        // Trailers, if any, end with an empty line.
        while (!readLine(false).isEmpty()) {
          // Trailers are not used.
        }
        return;
      }
      readBody(size);
      if (!readLine(false).isEmpty()) {
        throw new HttpProtocolException("chunk not followed by CRLF");
      }
    }
  }

  private void readBody(long length) throws IOException {
    long left = length;
    while (left > 0) {
      if (pos == limit && !fill()) {
        throw new EOFException("connection closed with " + left + " body bytes missing");
      }
      int n = (int) Math.min(left, limit - pos);
      response.appendBody(buffer, pos, n);
      pos += n;
      left -= n;
    }
  }

  private void readToEnd() throws IOException {
    while (pos < limit || fill()) {
      response.appendBody(buffer, pos, limit - pos);
      pos = limit;
    }
  }

  /** A line without its CRLF (a bare LF is accepted too). */
  private String readLine(boolean first) throws IOException {
    int scanned = pos;
    while (true) {
      for (int i = scanned; i < limit; i++) {
        if (buffer[i] == '\n') {
          int end = i > pos && buffer[i - 1] == '\r' ? i - 1 : i;
          String line = new String(buffer, pos, end - pos, StandardCharsets.ISO_8859_1);
          pos = i + 1;
          return line;
        }
      }
      scanned = limit - pos;
      if (pos > 0) {
        System.arraycopy(buffer, pos, buffer, 0, limit - pos);
        limit -= pos;
        pos = 0;
      }
      if (limit == buffer.length) {
        throw new HttpProtocolException("header line longer than " + MAX_LINE + " bytes");
      }
      if (!fill()) {
        if (first && limit == 0) {
          throw new EOFException("connection closed before an answer");
        }
        throw new HttpProtocolException(
            "connection closed in the middle of the answer's head: '"
                + printable(new String(buffer, pos, limit - pos, StandardCharsets.ISO_8859_1))
                + "'");
      }
    }
  }

  /** Reads more bytes after {@code limit}; false at the end of the stream. */
  private boolean fill() throws IOException {
    if (pos == limit) {
      pos = 0;
      limit = 0;
    }
    int n = in.read(buffer, limit, buffer.length - limit);
    if (n < 0) {
      return false;
    }
    limit += n;
    return true;
  }

  private static String printable(String s) {
    String cut = s.length() > 120 ? s.substring(0, 120) + "…" : s;
    StringBuilder b = new StringBuilder(cut.length());
    for (int i = 0; i < cut.length(); i++) {
      char c = cut.charAt(i);
      b.append(c < 0x20 || c == 0x7f ? '?' : c);
    }
    return b.toString();
  }
}
