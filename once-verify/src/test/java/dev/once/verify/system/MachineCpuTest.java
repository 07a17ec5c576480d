package dev.once.verify.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.verify.load.CpuClock;
import org.junit.jupiter.api.Test;

class MachineCpuTest {

  @Test
  void busyTicksLeaveOutIdleAndIowait() {
    // user nice system idle iowait irq softirq steal guest guest_nice
    assertThat(MachineCpu.busyTicks("cpu  10 1 5 1000 77 2 3 4 9 9"))
        .isEqualTo(10 + 1 + 5 + 2 + 3 + 4);
    assertThat(MachineCpu.busyTicks("cpu0 10 1 5 1000 77 2 3 4 0 0")).isEqualTo(-1);
  }

  @Test
  void othersAreTheMachineMinusOurProcesses() {
    CpuClock machine = () -> 1_000;
    assertThat(MachineCpu.others(machine, () -> 300, () -> 100).cpuNanos()).isEqualTo(600);
    assertThat(MachineCpu.others(machine, () -> 300, CpuClock.NONE).cpuNanos()).isEqualTo(-1);
    assertThat(MachineCpu.others(CpuClock.NONE).cpuNanos()).isEqualTo(-1);
  }
}
