package dev.once.verify.system;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.once.verify.load.CpuClock;
import org.junit.jupiter.api.Test;

class MachineCpuTest {

  @Test
  void busyTicksLeaveOutIdleAndIowait() {
    // user nice system idle iowait irq softirq steal guest guest_nice
    assertEquals(10 + 1 + 5 + 2 + 3 + 4, MachineCpu.busyTicks("cpu  10 1 5 1000 77 2 3 4 9 9"));
    assertEquals(-1, MachineCpu.busyTicks("cpu0 10 1 5 1000 77 2 3 4 0 0"));
  }

  @Test
  void othersAreTheMachineMinusOurProcesses() {
    CpuClock machine = () -> 1_000;
    assertEquals(600, MachineCpu.others(machine, () -> 300, () -> 100).cpuNanos());
    assertEquals(-1, MachineCpu.others(machine, () -> 300, CpuClock.NONE).cpuNanos());
    assertEquals(-1, MachineCpu.others(CpuClock.NONE).cpuNanos());
  }
}
