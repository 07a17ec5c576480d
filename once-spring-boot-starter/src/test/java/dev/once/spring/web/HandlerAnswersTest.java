package dev.once.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.function.HandlerFunction;

/** HandlerAnswers names Spring MVC's types instead of referring to them: the names must hold. */
class HandlerAnswersTest {

  @Test
  void namesAreSpringMvcs() {
    assertThat(HandlerAnswers.MATCHED_HANDLER)
        .isEqualTo(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE);
    assertThat(HandlerAnswers.RESOLVED_EXCEPTION).isEqualTo(DispatcherServlet.EXCEPTION_ATTRIBUTE);
    assertThat(HandlerAnswers.HANDLER_FUNCTION).isEqualTo(HandlerFunction.class.getName());
    assertThat(HandlerAnswers.VALIDATION_FAILURES)
        .containsExactlyInAnyOrder(
            MethodArgumentNotValidException.class.getName(),
            HandlerMethodValidationException.class.getName());
  }
}
