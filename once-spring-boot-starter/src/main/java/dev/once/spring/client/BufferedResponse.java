package dev.once.spring.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/** An answer whose body was read to find its problem type, with that body for the caller. */
final class BufferedResponse implements ClientHttpResponse {
  private final ClientHttpResponse response;
  private final byte[] body;

  BufferedResponse(ClientHttpResponse response, byte[] body) {
    this.response = response;
    this.body = body;
  }

  @Override
  public HttpStatusCode getStatusCode() throws IOException {
    return response.getStatusCode();
  }

  @Override
  public String getStatusText() throws IOException {
    return response.getStatusText();
  }

  @Override
  public HttpHeaders getHeaders() {
    return response.getHeaders();
  }

  @Override
  public InputStream getBody() {
    return new ByteArrayInputStream(body);
  }

  @Override
  public void close() {
    response.close();
  }
}
