package dev.once.spring.web;

import dev.once.spring.OnceProperties;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/**
 * The 503 answer of load shedding's {@code OutboxOverloadedException}, in Spring MVC applications,
 * whether or not the idempotency filter is on. Imported by name by {@code OnceAutoConfiguration};
 * not annotated {@code @Configuration}, for the reason {@link WebConfiguration} gives.
 */
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = "org.springframework.web.servlet.HandlerExceptionResolver")
class OutboxOverloadedConfiguration {
  @Bean
  @ConditionalOnMissingBean
  OutboxOverloadedAnswer onceOutboxOverloadedAnswer(OnceProperties properties) {
    return new OutboxOverloadedAnswer(properties.idempotency().http().problemTypeBase());
  }
}
