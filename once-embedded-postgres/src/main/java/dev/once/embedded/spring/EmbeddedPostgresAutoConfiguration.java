package dev.once.embedded.spring;

import java.io.IOException;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * The {@link EmbeddedPostgresSupervisor} of a context whose database {@link
 * EmbeddedPostgresEnvironmentPostProcessor} started; nothing otherwise. Registered in {@code
 * META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}.
 */
@AutoConfiguration
@Conditional(EmbeddedPostgresSupervisor.Embedded.class)
public class EmbeddedPostgresAutoConfiguration {

  /**
   * The supervisor.
   *
   * @param context the context it supervises the server of
   * @return the supervisor
   * @throws IOException if the data directory is gone
   */
  @Bean
  public EmbeddedPostgresSupervisor embeddedPostgresSupervisor(
      ConfigurableApplicationContext context) throws IOException {
    return new EmbeddedPostgresSupervisor(context);
  }
}
