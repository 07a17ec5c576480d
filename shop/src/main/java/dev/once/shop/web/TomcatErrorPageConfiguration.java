package dev.once.shop.web;

import dev.once.shop.problems.ProblemResponses;
import org.apache.catalina.Container;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Replaces Tomcat's HTML error page with {@link ProblemErrorReportValve}, so that the requests
 * Tomcat refuses before any servlet runs are answered with a problem too.
 */
@Configuration(proxyBeanMethods = false)
public class TomcatErrorPageConfiguration {

  @Bean
  WebServerFactoryCustomizer<TomcatServletWebServerFactory> shopTomcatErrorPage(
      ProblemResponses problems) {
    return new ErrorPageCustomizer(problems);
  }

  /**
   * Runs after Boot's own Tomcat customizer, which adds a plain {@link ErrorReportValve} to the
   * host (with server.error.include-stacktrace=never); that valve is removed, ours added, and the
   * host told that ours is its error valve, so that it does not add a default one at start.
   */
  private static final class ErrorPageCustomizer
      implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {
    private final ProblemResponses problems;

    ErrorPageCustomizer(ProblemResponses problems) {
      this.problems = problems;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
      factory.addContextCustomizers(
          context -> {
            Container host = context.getParent();
            if (host instanceof StandardHost standardHost) {
              standardHost.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
            Pipeline pipeline = host.getPipeline();
            for (Valve valve : pipeline.getValves()) {
              if (valve instanceof ErrorReportValve) {
                pipeline.removeValve(valve);
              }
            }
            pipeline.addValve(new ProblemErrorReportValve(problems));
          });
    }

    @Override
    public int getOrder() {
      return Ordered.LOWEST_PRECEDENCE;
    }
  }
}
