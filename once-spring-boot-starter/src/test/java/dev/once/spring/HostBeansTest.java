package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.once.spring.outbox.OutboxTestApplication;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * What Once changes in the application's own beans, and only with its leave: by default it wraps
 * the {@code dataSource} bean for the relay's pool and sets the Hikari pool's exception override,
 * and says so in the log at start; {@code once.outbox.relay.pool-size=0} and {@code
 * once.datasource.failover-eviction=false} leave the bean as the application made it.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(60)
class HostBeansTest {

  @Test
  void byDefaultOnceWrapsTheDataSourceAndSetsThePoolsOverrideAndLogsBoth(CapturedOutput output) {
    OutboxTestApplication.runner()
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource bean = context.getBean(DataSource.class);
              assertThat(bean).isNotInstanceOf(HikariDataSource.class);
              HikariDataSource pool = bean.unwrap(HikariDataSource.class);
              assertThat(pool.getExceptionOverride()).isInstanceOf(FailoverEviction.class);
            });
    assertThat(output.getOut())
        .contains("Once wrapped the bean 'dataSource' so that the outbox relay's threads")
        .contains("Once set the exception override of the Hikari pool of bean 'dataSource'");
  }

  @Test
  void turnedOffTheApplicationsDataSourceIsLeftAsItIs(CapturedOutput output) {
    OutboxTestApplication.runner()
        .withPropertyValues(
            "once.outbox.relay.pool-size=0", "once.datasource.failover-eviction=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource bean = context.getBean(DataSource.class);
              assertThat(bean).isInstanceOf(HikariDataSource.class);
              assertThat(((HikariDataSource) bean).getExceptionOverride()).isNull();
            });
    assertThat(output.getOut())
        .doesNotContain("Once wrapped the bean")
        .doesNotContain("Once set the exception override");
  }
}
