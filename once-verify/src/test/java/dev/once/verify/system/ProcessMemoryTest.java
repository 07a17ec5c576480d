package dev.once.verify.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessMemoryTest {

  @Test
  void parsesVmRssAndVmHwm() {
    ProcessMemory m =
        ProcessMemory.parse(
            List.of("Name:\tjava", "VmHWM:\t  307200 kB", "VmRSS:\t  204800 kB", "Threads:\t40"));
    assertEquals(204800L * 1024, m.rssBytes());
    assertEquals(200.0, m.rssMegabytes());
    assertEquals(300.0, m.peakRssMegabytes());
    assertNull(ProcessMemory.parse(List.of("Name:\tjava")));
  }
}
