package dev.once.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

/**
 * An unusable {@link Idempotent#retention()} fails the application's start, with a message that
 * names the handler, rather than a request.
 */
class IdempotentRetentionAtStartTest {

  @Configuration(proxyBeanMethods = false)
  @EnableWebMvc
  static class Mvc {
    @Bean
    MvcIdempotentHandlers handlers(org.springframework.context.ApplicationContext context) {
      return new MvcIdempotentHandlers(context);
    }
  }

  @RestController
  static class NotADuration {
    @Idempotent(retention = "soon")
    @PostMapping("/soon")
    String create() {
      return "created";
    }
  }

  @RestController
  static class UnderASecond {
    @Idempotent(retention = "500ms")
    @PostMapping("/quick")
    String create() {
      return "created";
    }
  }

  @RestController
  static class Usable {
    @Idempotent(retention = "1h")
    @PostMapping("/fine")
    String create() {
      return "created";
    }
  }

  private final WebApplicationContextRunner runner =
      new WebApplicationContextRunner().withUserConfiguration(Mvc.class);

  @Test
  void aRetentionThatIsNotADurationFailsTheStart() {
    runner
        .withUserConfiguration(NotADuration.class)
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .isInstanceOf(IllegalArgumentException.class);
              assertThat(context.getStartupFailure())
                  .hasStackTraceContaining("@Idempotent(retention = \"soon\") on ")
                  .hasStackTraceContaining(NotADuration.class.getName() + "#create");
            });
  }

  @Test
  void aRetentionUnderASecondFailsTheStartByCoresRule() {
    runner
        .withUserConfiguration(UnderASecond.class)
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .hasStackTraceContaining(UnderASecond.class.getName() + "#create")
                  .hasStackTraceContaining("retention must be at least 1 second, was PT0.5S");
            });
  }

  @Test
  void aUsableRetentionStarts() {
    runner.withUserConfiguration(Usable.class).run(context -> assertThat(context).hasNotFailed());
  }
}
