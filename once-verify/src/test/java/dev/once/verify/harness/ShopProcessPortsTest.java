package dev.once.verify.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.RepeatedTest;

class ShopProcessPortsTest {

  @RepeatedTest(20)
  void theProcessesOfOneRunAreGivenDifferentPortsThatAreFree() throws Exception {
    int[] ports = ShopProcess.freePorts(8);

    assertThat(Arrays.stream(ports).distinct().count()).isEqualTo(8);
    for (int port : ports) {
      try (ServerSocket socket = new ServerSocket(port)) {
        assertThat(socket.getLocalPort()).isEqualTo(port);
      }
    }
  }
}
