package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.problems.ProblemResponses;
import dev.once.spring.OnceProperties;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The bodies of Tomcat's own error answers, without a server (HostileInputTest sends them). */
class ProblemErrorReportValveTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final ProblemErrorReportValve valve =
      new ProblemErrorReportValve(new ProblemResponses(OnceProperties.defaults()));

  @Test
  void namesEachStatusWithTheShopsSlug() {
    assertProblem(valve.body(400), 400, "bad-request");
    assertProblem(valve.body(404), 404, "not-found");
    assertProblem(valve.body(413), 413, "payload-too-large");
    assertProblem(valve.body(431), 431, "request-header-too-large");
    assertProblem(valve.body(500), 500, "internal-error");
    assertProblem(valve.body(502), 502, "internal-error");
    assertProblem(valve.body(503), 503, "service-unavailable");
    assertProblem(valve.body(417), 417, "http-417");
  }

  @Test
  void writesValidAsciiJsonWhateverTheTypeBase() {
    OnceProperties once =
        new Binder(
                new MapConfigurationPropertySource(
                    Map.of("once.idempotency.http.problem-type-base", "https://exämple.dev/é/")))
            .bindOrCreate("once", OnceProperties.class);
    String body = new ProblemErrorReportValve(new ProblemResponses(once)).body(400);
    assertThat(body).matches("\\p{ASCII}+");
    assertThat(JSON.readTree(body).get("type").stringValue())
        .isEqualTo("https://exämple.dev/é/bad-request");
  }

  @Test
  void aTransientDatabaseFailureBehindA500IsA503() {
    var unreachable =
        new RuntimeException(new SQLTransientConnectionException("no connection", "08001"));
    assertThat(ProblemErrorReportValve.answered(500, unreachable)).isEqualTo(503);
    var bug = new IllegalStateException("a bug");
    assertThat(ProblemErrorReportValve.answered(500, bug)).isEqualTo(500);
    var constraint = new RuntimeException(new SQLException("duplicate key", "23505"));
    assertThat(ProblemErrorReportValve.answered(500, constraint)).isEqualTo(500);
    assertThat(ProblemErrorReportValve.answered(400, unreachable)).isEqualTo(400);
  }

  private static void assertProblem(String body, int status, String slug) {
    JsonNode problem = JSON.readTree(body);
    assertThat(problem.propertyNames()).containsExactly("type", "title", "status", "detail");
    assertThat(problem.get("type").stringValue()).isEqualTo("https://once.dev/problems/" + slug);
    assertThat(problem.get("status").asInt()).isEqualTo(status);
    assertThat(problem.get("title").stringValue()).isNotBlank();
    assertThat(problem.get("detail").stringValue()).isNotBlank();
  }
}
