package dev.once.spring.web;

import dev.once.idempotency.IdempotencyEngine;
import dev.once.json.JsonCanonicalizer;
import dev.once.spring.OnceProperties;
import dev.once.spring.metrics.IdempotencyMetrics;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The servlet filter, in servlet web applications, with a transaction manager, unless {@code
 * once.idempotency.http.enabled=false}. Imported by name by {@code OnceAutoConfiguration}, which
 * also checks, under the same conditions, that the transaction manager manages the DataSource of
 * the idempotency store. Not annotated {@code @Configuration}, like every configuration the
 * auto-configuration imports by name: a component scan of this package (an application or test
 * here) must not take it up as the application's own configuration; imported, its {@code @Bean}
 * methods are processed all the same (without proxies).
 */
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBean(PlatformTransactionManager.class)
@ConditionalOnBooleanProperty(name = "once.idempotency.http.enabled", matchIfMissing = true)
// Imported, not a member class: only an @Configuration's member classes are processed.
@Import(WebConfiguration.AnnotatedEndpointsConfiguration.class)
class WebConfiguration {

  @Bean
  @ConditionalOnMissingBean
  IdempotencyClientResolver onceIdempotencyClientResolver() {
    return IdempotencyClientResolver.standard();
  }

  /** No metrics, unless Micrometer's ({@code dev.once.spring.metrics}) or the application's. */
  @Bean
  @ConditionalOnMissingBean
  IdempotencyMetrics onceNoIdempotencyMetrics() {
    return IdempotencyMetrics.NONE;
  }

  @Bean
  @ConditionalOnMissingBean
  KeyedHttpRequests onceIdempotentExecution(
      IdempotencyEngine engine,
      PlatformTransactionManager transactions,
      DataSource dataSource,
      OnceProperties properties,
      IdempotencyMetrics metrics) {
    return new KeyedHttpRequests(
        engine,
        transactions,
        dataSource,
        properties.idempotency().http().problemTypeBase(),
        metrics,
        (int) properties.idempotency().limits().maxAnswerSize().toBytes());
  }

  /** The per-client caps of {@code once.idempotency.limits}; none by default. */
  @Bean
  @ConditionalOnMissingBean
  ClientCaps onceClientCaps(OnceProperties properties) {
    OnceProperties.Limits limits = properties.idempotency().limits();
    return new ClientCaps(
        limits.maxInFlightPerClient(),
        limits.newKeysPerMinute(),
        properties.idempotency().retryAfter(),
        // Local to this process (token buckets); no Clock bean of Once's or the application's.
        Clock.systemUTC());
  }

  /** Finds {@link Idempotent} on the handler Spring MVC chooses, when Spring MVC is present. */
  @ConditionalOnClass(name = "org.springframework.web.servlet.HandlerMapping")
  static class AnnotatedEndpointsConfiguration {
    @Bean
    @ConditionalOnMissingBean
    IdempotentHandlers onceIdempotentHandlers(ApplicationContext context) {
      return new MvcIdempotentHandlers(context);
    }
  }

  @Bean
  FilterRegistrationBean<IdempotencyFilter> onceIdempotencyFilter(
      OnceProperties properties,
      IdempotencyClientResolver clients,
      KeyedHttpRequests execution,
      IdempotencyMetrics metrics,
      ClientCaps caps,
      ObjectProvider<IdempotentHandlers> handlers) {
    OnceProperties.Http http = properties.idempotency().http();
    IdempotencyFilter filter =
        new IdempotencyFilter(
            IdempotentEndpoints.of(
                http.methods(),
                http.paths(),
                handlers.getIfAvailable(() -> IdempotentHandlers.NONE)),
            clients,
            JsonCanonicalizer.withMaxDepth(http.maxJsonDepth()),
            execution,
            http.problemTypeBase(),
            metrics,
            caps,
            (int) http.maxBodySize().toBytes(),
            http.filterOrder());
    FilterRegistrationBean<IdempotencyFilter> registration = new FilterRegistrationBean<>(filter);
    registration.setName("onceIdempotencyFilter");
    registration.setOrder(http.filterOrder());
    return registration;
  }
}
