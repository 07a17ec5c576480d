package dev.once.test.http;

import dev.once.test.effect.Effect;
import java.util.Comparator;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.DefaultMockMvcBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

/**
 * What the endpoint tests share: {@link EndpointTestApplication} on a random port over the test
 * JVM's embedded PostgreSQL (each concrete test class imports {@code OnceTestFaults}, the same way,
 * so they share one context), a tag of the test's own and the probe that counts its rows.
 */
@SpringBootTest(
    classes = EndpointTestApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class EndpointApplicationTest {

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    EndpointTestApplication.database(registry);
  }

  @LocalServerPort int port;
  @Autowired JdbcTemplate jdbc;
  @Autowired WebApplicationContext context;

  /** This test's own tag: the rows of the effect table only its requests insert. */
  final String tag = "t-" + UUID.randomUUID();

  /** The rows this test's requests inserted. */
  Effect rows() {
    return () -> jdbc.queryForObject("SELECT count(*) FROM effect WHERE tag = ?", Long.class, tag);
  }

  String baseUrl() {
    return "http://localhost:" + port;
  }

  /** MockMvc over the application with every registered servlet filter, in their order. */
  MockMvc mockMvc() {
    DefaultMockMvcBuilder builder = MockMvcBuilders.webAppContextSetup(context);
    context.getBeansOfType(FilterRegistrationBean.class).values().stream()
        .sorted(Comparator.comparingInt(FilterRegistrationBean::getOrder))
        .forEach(registration -> builder.addFilter(registration.getFilter()));
    return builder.build();
  }
}
