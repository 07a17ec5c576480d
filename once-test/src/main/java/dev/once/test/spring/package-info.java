/**
 * The kit in a Spring Boot test: {@link dev.once.test.spring.OnceTestBeans} finds an application's
 * consumers as {@link dev.once.test.consumer.ConsumerTarget}s; {@link
 * dev.once.test.spring.TestPostgresProperties} points {@code spring.datasource.*} at the kit's
 * PostgreSQL. Needs spring-context and spring-test (a Spring Boot test has them).
 */
package dev.once.test.spring;
