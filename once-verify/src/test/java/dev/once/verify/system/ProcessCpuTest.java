package dev.once.verify.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.verify.load.CpuClock;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ProcessCpuTest {

  /**
   * The drain's PostgreSQL clock must keep the CPU of backends that ended (a closed shop's): a
   * child that burns CPU and is reaped adds its time to its parent's reading, where {@link
   * ProcessCpu#withChildren} (live children only) would lose it.
   */
  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void keepsTheCpuOfAReapedChild() throws Exception {
    ProcessHandle self = ProcessHandle.current();
    CpuClock clock = ProcessCpu.withReapedChildren(self.pid());
    long before = clock.cpuNanos();
    long selfBefore = ownCpuNanos(self);
    // The child burns CPU, then prints its own /proc stat just before it ends.
    Process child =
        new ProcessBuilder(
                "sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; cat /proc/$$/stat")
            .start();
    String stat = new String(child.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    assertThat(child.waitFor(90, TimeUnit.SECONDS)).isTrue(); // reaped by this JVM
    // Own CPU read inside the clock's two readings, so that it counts no tick outside them.
    long selfAfter = ownCpuNanos(self);
    long after = clock.cpuNanos();
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    long childTicks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // its utime + stime
    long nanosPerTick = 1_000_000_000L / MachineCpu.clockTicksPerSecond();
    assertThat(childTicks).as(stat).isPositive();
    // This JVM's own CPU in between plus at least all the child ran: without the reaped children
    // (cutime, cstime), the reading grows by the JVM's own CPU alone.
    assertThat(after - before)
        .as(
            "clock %d -> %d, own CPU %d -> %d, child %d ticks",
            before, after, selfBefore, selfAfter, childTicks)
        .isGreaterThanOrEqualTo((selfAfter - selfBefore) + childTicks * nanosPerTick);
  }

  /** This JVM's own CPU (utime + stime), as /proc counts it. */
  private static long ownCpuNanos(ProcessHandle self) {
    return self.info().totalCpuDuration().orElseThrow().toNanos();
  }

  @Test
  void aProcessThatIsGoneReadsMinusOne() {
    assertThat(ProcessCpu.withReapedChildren(Long.MAX_VALUE).cpuNanos()).isEqualTo(-1);
  }
}
