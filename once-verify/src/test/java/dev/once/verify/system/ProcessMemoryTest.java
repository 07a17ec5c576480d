package dev.once.verify.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessMemoryTest {

  @Test
  void parsesVmRssAndVmHwm() {
    ProcessMemory m =
        ProcessMemory.parse(
            List.of("Name:\tjava", "VmHWM:\t  307200 kB", "VmRSS:\t  204800 kB", "Threads:\t40"));
    assertThat(m.rssBytes()).isEqualTo(204800L * 1024);
    assertThat(m.rssMegabytes()).isEqualTo(200.0);
    assertThat(m.peakRssMegabytes()).isEqualTo(300.0);
    assertThat(ProcessMemory.parse(List.of("Name:\tjava"))).isNull();
  }
}
