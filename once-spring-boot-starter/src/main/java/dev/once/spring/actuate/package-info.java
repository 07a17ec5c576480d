/**
 * Once for operators through Spring Boot Actuator: the endpoint {@code once} ({@link
 * dev.once.spring.actuate.OnceEndpoint}), reachable only where the application exposes it.
 */
package dev.once.spring.actuate;
