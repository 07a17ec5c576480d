package dev.once.test.http;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.http.HttpMethod;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

/**
 * Spring's {@link MockMvc} as a {@link HttpTarget}: no server, the application's filters (Once's
 * among them) only if the MockMvc was built with them ({@code @AutoConfigureMockMvc} adds every
 * filter bean). An exception MockMvc rethrows from the server-side stack becomes a 500.
 */
public final class MockMvcTarget implements HttpTarget {
  private final MockMvc mockMvc;

  private MockMvcTarget(MockMvc mockMvc) {
    this.mockMvc = mockMvc;
  }

  /** Requests through {@code mockMvc}. */
  public static MockMvcTarget of(MockMvc mockMvc) {
    return new MockMvcTarget(Objects.requireNonNull(mockMvc, "mockMvc"));
  }

  @Override
  public TestResponse exchange(TestRequest request) {
    MockHttpServletRequestBuilder builder =
        MockMvcRequestBuilders.request(
                HttpMethod.valueOf(request.method()), URI.create(request.path()))
            .content(request.body());
    request.headers().forEach((name, values) -> values.forEach(v -> builder.header(name, v)));
    if (request.contentType() != null) {
      builder.contentType(request.contentType());
    }
    MockHttpServletResponse response;
    try {
      response = mockMvc.perform(builder).andReturn().getResponse();
    } catch (Exception e) {
      // What a servlet container answers when the stack throws.
      return TestResponse.serverFailure();
    }
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (String name : response.getHeaderNames()) {
      headers.put(name, response.getHeaders(name));
    }
    if (response.getContentType() != null && !headers.containsKey("Content-Type")) {
      headers.put("Content-Type", List.of(response.getContentType()));
    }
    return new TestResponse(response.getStatus(), headers, response.getContentAsByteArray());
  }

  @Override
  public String toString() {
    return "MockMvcTarget";
  }
}
