package dev.once.shop.broken;

import dev.once.outbox.Completion;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxRecord;
import dev.once.shop.payments.PaymentService;
import dev.once.shop.provider.ProviderProperties;
import dev.once.spring.outbox.OutboxHandler;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Set;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Switches the {@link BrokenMode} named by {@value BrokenMode#PROPERTY} on, from outside the shop's
 * production code: it wraps the beans that the mode breaks instead of asking the shop for hooks.
 *
 * <ul>
 *   <li>{@link BrokenMode#PROVIDER_KEY_PER_ATTEMPT}: the provider's HTTP client (the bean {@value
 *       #PROVIDER_HTTP_CLIENT}) sends every request with a fresh Idempotency-Key;
 *   <li>{@link BrokenMode#MARK_DELIVERED_BEFORE_CALL}: the charge and refund outbox handlers report
 *       every attempt done, whatever the provider answered, and each provider call makes one
 *       attempt ({@code shop.provider.deadline} cut to {@value #ONE_ATTEMPT_MILLIS} ms): the
 *       relay's retry was the only one before once-client retried inside the call, and with several
 *       attempts per call a lost call, the violation this mode exists to show, became rare enough
 *       to go unseen in a short run;
 *   <li>{@link BrokenMode#COMMIT_OFFSET_BEFORE_TRANSACTION}: the Kafka inbox listeners commit a
 *       record's offset before its transaction ({@link OffsetsCommittedFirst}).
 * </ul>
 *
 * <p>An auto-configuration of the shop's test class path and of {@code shop-broken-modes.jar} only.
 */
@AutoConfiguration
@EnableConfigurationProperties(BrokenMode.Setting.class)
public class BrokenModeConfiguration {
  /** The name of the shop's bean that calls the payment provider. */
  static final String PROVIDER_HTTP_CLIENT = "providerHttpClient";

  /** The provider call's deadline in {@link BrokenMode#MARK_DELIVERED_BEFORE_CALL}: one attempt. */
  static final long ONE_ATTEMPT_MILLIS = 150;

  private static final Set<String> PROVIDER_TYPES =
      Set.of(PaymentService.PROVIDER_CHARGE, PaymentService.PROVIDER_REFUND);

  @Bean
  BrokenMode brokenMode(BrokenMode.Setting setting) {
    BrokenMode mode = setting.mode();
    mode.announce();
    return mode;
  }

  /** Wraps the beans that the configured mode breaks; read before any bean exists. */
  @Bean
  static BeanPostProcessor brokenModeBeans(Environment environment) {
    BrokenMode mode =
        Binder.get(environment)
            .bind("shop.testing", Bindable.of(BrokenMode.Setting.class))
            .map(BrokenMode.Setting::mode)
            .orElse(BrokenMode.NONE);
    return new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String name) {
        if (mode == BrokenMode.PROVIDER_KEY_PER_ATTEMPT
            && PROVIDER_HTTP_CLIENT.equals(name)
            && bean instanceof HttpClient http) {
          return new KeyPerAttemptHttpClient(http);
        }
        if (mode == BrokenMode.MARK_DELIVERED_BEFORE_CALL
            && bean instanceof OutboxHandler handler
            && PROVIDER_TYPES.contains(handler.type())) {
          return alwaysDone(handler);
        }
        if (mode == BrokenMode.MARK_DELIVERED_BEFORE_CALL
            && bean instanceof ProviderProperties provider) {
          return new ProviderProperties(
              provider.url(),
              provider.connectTimeout(),
              provider.readTimeout(),
              Duration.ofMillis(ONE_ATTEMPT_MILLIS));
        }
        return bean;
      }
    };
  }

  /** The handler, except that every attempt ends done: no retry, no dead row. */
  private static OutboxHandler alwaysDone(OutboxHandler handler) {
    return new OutboxHandler() {
      @Override
      public String type() {
        return handler.type();
      }

      @Override
      public Delivery handle(OutboxRecord row) {
        return done(() -> handler.handle(row));
      }

      @Override
      public Delivery handle(OutboxRecord row, Completion completion) {
        return done(() -> handler.handle(row, completion));
      }
    };
  }

  private interface Attempt {
    Delivery run() throws Exception;
  }

  private static Delivery done(Attempt attempt) {
    try {
      attempt.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // Broken on purpose: a failed attempt is done too.
    }
    return Delivery.done();
  }

  /** The Kafka part, only where once-kafka is on the class path. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "dev.once.kafka.spring.InboxListenerCustomizer")
  static class Kafka {
    @Bean
    OffsetsCommittedFirst offsetsCommittedFirst(BrokenMode mode) {
      return new OffsetsCommittedFirst(mode);
    }
  }
}
