package dev.once.shop.support;

import dev.once.shop.ShopApplication;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The whole shop on a random port, on the test JVM's one embedded PostgreSQL (wiped when the JVM
 * first starts it). Test bases add their own settings with {@code @TestPropertySource}; each
 * distinct set of settings is one Spring context, shared by the tests that declare it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest(
    classes = ShopApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "once.embedded-postgres.clean=true",
      "once.embedded-postgres.data-dir=" + ShopOnEmbeddedPostgres.DATA_DIR,
      // Payments stay pending unless a test drives the provider itself or turns the relay on
      // (ProviderRelayTest), so no test races a relay it did not ask for.
      "once.outbox.relay.enabled=false",
      // With the relay off, the rows tests leave behind wait for ever and would look like a relay
      // hopelessly behind: load shedding (on in the shop) would refuse every later payment.
      // OutboxOverloadedTest turns it on for itself.
      "once.outbox.load-shedding.enabled=false",
      // Tests send dozens of concurrent requests and thousands of keys from one client to prove
      // what concurrency does; the per-client caps (on in the shop) would refuse them. The tests
      // of the caps (ClientFloodTest, ClientLimitsTest) turn them on for themselves.
      "once.idempotency.limits.max-in-flight-per-client=0",
      "once.idempotency.limits.new-keys-per-minute=0"
    })
public @interface ShopOnEmbeddedPostgres {
  /**
   * The embedded database's data directory, shared by every test context of the JVM, one per test
   * JVM of the build ({@code once.test.fork}, which the build sets to the fork's number), as a
   * property value that Spring resolves; {@link ShopIntegrationTest#DATA_DIR} is the path itself.
   */
  String DATA_DIR = "target/embedded-pg-${once.test.fork:fork1}";
}
