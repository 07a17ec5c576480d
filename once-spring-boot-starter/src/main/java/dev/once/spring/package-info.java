/**
 * Spring Boot auto-configuration of Once on the application's {@code DataSource} and transaction
 * manager. {@link dev.once.spring.OnceAutoConfiguration} sets up the idempotency engine and its
 * PostgreSQL store, the purge of expired keys and the migration of Once's tables ({@link
 * dev.once.spring.OnceSchemaMigration}); each capability package has an auto-configuration of its
 * own, ordered after it: the {@code Idempotency-Key} servlet filter ({@code dev.once.spring.web}),
 * the transactional outbox and its relay, running every {@link
 * dev.once.spring.outbox.OutboxHandler} bean and delivering events to every {@link
 * dev.once.inbox.InboxConsumer} bean through the inbox ({@code dev.once.spring.outbox}, {@code
 * dev.once.spring.inbox}), typed events ({@code dev.once.spring.events}), metrics, tracing and the
 * Actuator endpoint. Configured by {@link dev.once.spring.OnceProperties} under {@code once.*}.
 *
 * <p>What an application can rely on: every property is validated at start, and a bad value stops
 * the start with the property's name; the start also fails if the inbox retention is not longer
 * than the longest retry span of any message type. Once's tables live in schema {@code once} with a
 * Flyway history of their own, migrated with the application's Flyway data source (with {@code
 * spring.flyway.user} set, the schema owner's), and the application's role ({@link
 * dev.once.spring.ApplicationRole}) gets only row access to them; the application's own migrations,
 * run by Boot's Flyway, get that role in the placeholder {@code application_role} too. By default
 * the relay runs its claims, heartbeats, outcomes and its handlers' transactions on a small pool of
 * its own, so requests and relay work never take each other's connections; every Hikari pool drops
 * a connection that a failover left read-only, unless the application set an exception override of
 * its own.
 *
 * <p>Public here are only {@link dev.once.spring.OnceAutoConfiguration} (Spring Boot loads it, and
 * the other auto-configurations are ordered after it), {@link dev.once.spring.OnceProperties},
 * {@link dev.once.spring.OnceSchemaMigration} (a bean to order after) and {@link
 * dev.once.spring.ApplicationRole}. Each capability package's beans are defined by a public
 * auto-configuration of its own ({@code dev.once.spring.web.OnceWebAutoConfiguration}, {@code
 * dev.once.spring.inbox.OnceInboxAutoConfiguration}, {@code
 * dev.once.spring.outbox.OnceOutboxAutoConfiguration} and {@code OnceRelayAutoConfiguration}, …),
 * listed in {@code
 * META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}; their
 * {@code @Bean} methods are package-private, so the types behind the beans stay package-private.
 *
 * <p>Depends on once-core and {@code dev.once.spring.internal} alone: the capability packages read
 * {@link dev.once.spring.OnceProperties} and are ordered after {@link
 * dev.once.spring.OnceAutoConfiguration}, never the reverse. Applications and {@code once-kafka}'s
 * auto-configuration use it.
 */
package dev.once.spring;
