package dev.once.shop.development;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.psp.PspSimulator;
import dev.once.shop.provider.ProviderEndpoint;
import java.io.IOException;
import java.net.Socket;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The in-process provider is a development default: it runs, and is the provider's endpoint, only
 * while {@code shop.provider.url} is unset, and it stops with the application.
 */
class InProcessProviderTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withUserConfiguration(InProcessProvider.class);

  @Test
  void withoutAProviderUrlTheSimulatorRunsAndIsTheEndpoint() {
    PspSimulator[] started = new PspSimulator[1];
    runner.run(
        context -> {
          PspSimulator simulator = context.getBean(PspSimulator.class);
          started[0] = simulator;
          assertThat(context.getBean(ProviderEndpoint.class).baseUri())
              .isEqualTo(simulator.baseUri());
          assertThat(simulator.baseUri().getHost()).isEqualTo("127.0.0.1");
        });
    // Closed with the context: its port no longer answers.
    assertThat(started[0]).isNotNull();
    assertThat(listening(started[0])).isFalse();
  }

  @Test
  void withAProviderUrlNothingStarts() {
    runner
        .withPropertyValues("shop.provider.url=https://psp.example.com")
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(PspSimulator.class);
              assertThat(context).doesNotHaveBean(ProviderEndpoint.class);
            });
  }

  private static boolean listening(PspSimulator simulator) {
    try (Socket socket = new Socket(simulator.baseUri().getHost(), simulator.baseUri().getPort())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
