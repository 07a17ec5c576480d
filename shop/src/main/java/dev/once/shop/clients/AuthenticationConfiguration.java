package dev.once.shop.clients;

import com.zaxxer.hikari.HikariConfigMXBean;
import dev.once.shop.problems.DatabaseUnavailable;
import dev.once.shop.problems.ProblemResponses;
import dev.once.spring.web.IdempotencyClientResolver;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Registers the two authentication filters, the {@link ApiKeyAuthenticator} (lookups of unfamiliar
 * keys get a fifth of the pool, and wait for it as long as a request waits for a connection) and
 * the {@link AuthenticatedClient} parameter. Both filters run at order {@value #FILTER_ORDER},
 * before Once's idempotency filter (order 0), which scopes keys by the client id they set.
 */
@Configuration(proxyBeanMethods = false)
public class AuthenticationConfiguration implements WebMvcConfigurer {
  /** Servlet filter order of authentication: before Once's filter. */
  public static final int FILTER_ORDER = -10;

  private static final int HIKARI_DEFAULT_POOL_SIZE = 10;

  private static final Duration HIKARI_DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(30);

  static {
    // A resolved parameter, not part of the HTTP API: keep it out of the OpenAPI description.
    SpringDocUtils.getConfig().addRequestWrapperToIgnore(AuthenticatedClient.class);
  }

  @Bean
  ApiKeyAuthenticator apiKeyAuthenticator(
      ClientRepository clients, DataSource dataSource, Clock clock) {
    HikariConfigMXBean pool = pool(dataSource);
    return new ApiKeyAuthenticator(
        clients::activeClientByKeyHash,
        ApiKeyAuthenticator.unfamiliarLookupsFor(
            pool == null ? HIKARI_DEFAULT_POOL_SIZE : pool.getMaximumPoolSize()),
        pool == null
            ? HIKARI_DEFAULT_CONNECTION_TIMEOUT
            : Duration.ofMillis(pool.getConnectionTimeout()),
        clock);
  }

  @Bean
  FilterRegistrationBean<ApiKeyAuthenticationFilter> shopApiKeyAuthenticationFilter(
      ApiKeyAuthenticator authenticator,
      ProblemResponses problems,
      DatabaseUnavailable databaseUnavailable) {
    FilterRegistrationBean<ApiKeyAuthenticationFilter> registration =
        new FilterRegistrationBean<>(
            new ApiKeyAuthenticationFilter(authenticator, problems, databaseUnavailable));
    registration.setName("shopApiKeyAuthenticationFilter");
    registration.addUrlPatterns("/v1/*");
    registration.setOrder(FILTER_ORDER);
    return registration;
  }

  @Bean
  FilterRegistrationBean<AdminAuthenticationFilter> shopAdminAuthenticationFilter(
      AdminToken adminToken, ProblemResponses problems) {
    FilterRegistrationBean<AdminAuthenticationFilter> registration =
        new FilterRegistrationBean<>(new AdminAuthenticationFilter(adminToken, problems));
    registration.setName("shopAdminAuthenticationFilter");
    // Once's Actuator endpoint shows dead rows' payloads and requeues them: operators only.
    registration.addUrlPatterns("/admin/*", "/actuator/once", "/actuator/once/*");
    registration.setOrder(FILTER_ORDER);
    return registration;
  }

  /** The Hikari pool's settings, or null if the DataSource is not a Hikari pool. */
  private static HikariConfigMXBean pool(DataSource dataSource) {
    try {
      if (dataSource.isWrapperFor(HikariConfigMXBean.class)) {
        return dataSource.unwrap(HikariConfigMXBean.class);
      }
    } catch (SQLException e) {
      // isWrapperFor/unwrap of a pool do not touch the database; fall through to the defaults.
    }
    return null;
  }

  @Override
  public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
    resolvers.add(new AuthenticatedClientResolver());
  }

  /** Reads the id that {@link ApiKeyAuthenticationFilter} put on the request. */
  private static final class AuthenticatedClientResolver implements HandlerMethodArgumentResolver {
    @Override
    public boolean supportsParameter(MethodParameter parameter) {
      return parameter.getParameterType() == AuthenticatedClient.class;
    }

    @Override
    public AuthenticatedClient resolveArgument(
        MethodParameter parameter,
        ModelAndViewContainer mavContainer,
        NativeWebRequest webRequest,
        WebDataBinderFactory binderFactory) {
      Object id =
          webRequest.getAttribute(
              IdempotencyClientResolver.CLIENT_ID_ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
      if (!(id instanceof String clientId)) {
        // Only reachable if a /v1 controller were mapped outside the filter's URL pattern.
        throw new IllegalStateException("no authenticated client on a request that needs one");
      }
      return new AuthenticatedClient(clientId);
    }
  }
}
