/**
 * The Spring Boot part, which needs {@code spring-boot-autoconfigure} (an optional dependency of
 * the module, present in every Spring Boot service): with no {@code spring.datasource.url}, {@link
 * dev.once.embedded.spring.EmbeddedPostgresEnvironmentPostProcessor} starts the embedded PostgreSQL
 * and points the datasource and Flyway at its two roles, and {@link
 * dev.once.embedded.spring.EmbeddedPostgresSupervisor} restarts it when its postmaster dies. Both
 * are registered through {@code META-INF}, so adding the module is all a service does; the
 * properties are {@code once.embedded-postgres.*} ({@link
 * dev.once.embedded.spring.EmbeddedPostgresSettings}).
 */
package dev.once.embedded.spring;
