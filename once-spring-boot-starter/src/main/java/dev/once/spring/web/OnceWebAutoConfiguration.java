package dev.once.spring.web;

import dev.once.idempotency.IdempotencyEngine;
import dev.once.json.JsonCanonicalizer;
import dev.once.spring.OnceAutoConfiguration;
import dev.once.spring.OnceProperties;
import dev.once.spring.metrics.IdempotencyMetrics;
import dev.once.spring.metrics.OnceMetricsAutoConfiguration;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
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
 * Auto-configuration of Once in servlet web applications: the {@code Idempotency-Key} filter
 * ({@code IdempotencyFilterConfiguration}) and the 503 answer of load shedding ({@code
 * OutboxOverloadedConfiguration}). Ordered after the metrics' auto-configuration ({@link
 * OnceMetricsAutoConfiguration}): the filter's "no metrics" steps aside for Micrometer's. The
 * core's auto-configuration ({@link OnceAutoConfiguration}) checks, under the filter's conditions,
 * that the transaction manager manages the DataSource of the idempotency store.
 *
 * <p>Its nested configurations are not annotated {@code @Configuration}: a component scan of this
 * package (an application or test here) must not take them up as the application's own
 * configuration; as members of this class, their {@code @Bean} methods are processed all the same
 * (without proxies). This class itself is left out of such scans as every auto-configuration is.
 */
@AutoConfiguration(after = {OnceAutoConfiguration.class, OnceMetricsAutoConfiguration.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBean({DataSource.class, OnceProperties.class})
public final class OnceWebAutoConfiguration {

  /**
   * The servlet filter, with a transaction manager, unless {@code
   * once.idempotency.http.enabled=false}.
   */
  @ConditionalOnBean(PlatformTransactionManager.class)
  @ConditionalOnBooleanProperty(name = "once.idempotency.http.enabled", matchIfMissing = true)
  // Imported, not a member class: only an @Configuration's member classes are processed.
  @Import(IdempotencyFilterConfiguration.AnnotatedEndpointsConfiguration.class)
  static class IdempotencyFilterConfiguration {

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
    KeyedHttpRequests onceKeyedHttpRequests(
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

  /**
   * The 503 answer of load shedding's {@code OutboxOverloadedException}, in Spring MVC
   * applications, whether or not the idempotency filter is on.
   */
  @ConditionalOnClass(name = "org.springframework.web.servlet.HandlerExceptionResolver")
  static class OutboxOverloadedConfiguration {
    @Bean
    @ConditionalOnMissingBean
    OutboxOverloadedAnswer onceOutboxOverloadedAnswer(OnceProperties properties) {
      return new OutboxOverloadedAnswer(properties.idempotency().http().problemTypeBase());
    }
  }
}
