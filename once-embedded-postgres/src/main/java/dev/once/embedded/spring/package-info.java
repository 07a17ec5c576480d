/**
 * The Spring Boot part, which needs {@code spring-boot-autoconfigure} (an optional dependency of
 * the module, present in every Spring Boot service): when nothing else supplies the database (no
 * {@code spring.datasource.url}, no {@code JdbcConnectionDetails} or {@code DataSource} bean),
 * {@link dev.once.embedded.spring.EmbeddedPostgresAutoConfiguration}'s {@link
 * dev.once.embedded.spring.EmbeddedPostgresStarter} starts the embedded PostgreSQL and points the
 * datasource and Flyway at its two roles, and {@link
 * dev.once.embedded.spring.EmbeddedPostgresSupervisor} restarts it when its postmaster dies. It is
 * registered through {@code META-INF}, so adding the module is all a service does; the properties
 * are {@code once.embedded-postgres.*} ({@link dev.once.embedded.spring.EmbeddedPostgresSettings}).
 */
package dev.once.embedded.spring;
