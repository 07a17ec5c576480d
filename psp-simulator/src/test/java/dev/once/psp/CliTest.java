package dev.once.psp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CliTest {

  @Test
  void noSettingsAreTheDefaults() throws Exception {
    assertThat(Cli.parse(List.of(), Map.of())).isEqualTo(PspSettings.defaults());
  }

  @Test
  void flagsSetEverySetting() throws Exception {
    PspSettings settings =
        Cli.parse(
            List.of(
                "--port",
                "9090",
                "--host=0.0.0.0",
                "--latency-ms",
                "5",
                "--error-rate",
                "0.1",
                "--timeout-rate=0.2",
                "--lost-answer-rate",
                "0.3",
                "--timeout-ms",
                "100",
                "--seed",
                "-7"),
            Map.of());

    assertThat(settings)
        .isEqualTo(new PspSettings("0.0.0.0", 9090, new Faults(5, 0.1, 0.2, 0.3, 100), -7));
  }

  @Test
  void environmentVariablesApplyAndFlagsWin() throws Exception {
    PspSettings settings =
        Cli.parse(
            List.of("--port", "9091"),
            Map.of("PSP_PORT", "9090", "PSP_LOST_ANSWER_RATE", "0.5", "PSP_TIMEOUT_MS", "10"));

    assertThat(settings.port()).isEqualTo(9091);
    assertThat(settings.faults()).isEqualTo(Faults.NONE.withLostAnswerRate(0.5).withTimeoutMs(10));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--port abc         | --port must be an integer",
        "--port 70000       | --port must be between 0 and 65535",
        "--port -1          | --port must be between 0 and 65535",
        "--error-rate 1.5   | --error-rate must be between 0 and 1",
        "--error-rate x     | --error-rate must be a number",
        "--timeout-rate NaN | --timeout-rate must be between 0 and 1",
        "--latency-ms -1    | --latency-ms must be between 0 and 600000",
        "--timeout-ms 600001 | --timeout-ms must be between 0 and 600000",
        "--error-rate 0.6 --timeout-rate 0.6 | must not exceed 1",
        "--colour blue      | unknown option '--colour'",
        "9090               | unexpected argument '9090'",
        "--seed             | --seed needs a value",
        "--host=            | --host must not be blank",
      })
  void aBadFlagIsAUsageError(String args, String message) {
    assertThatThrownBy(() -> Cli.parse(List.of(args.trim().split(" +")), Map.of()))
        .isInstanceOf(Cli.UsageException.class)
        .hasMessageContaining(message);
  }

  @Test
  void theJournalIsAFlagOrAnEnvironmentVariableAndNoneByDefault(@TempDir Path dir)
      throws Exception {
    Path flag = dir.resolve("flag.journal");
    Path variable = dir.resolve("env.journal");

    assertThat(Cli.parse(List.of(), Map.of()).journal()).isNull();
    assertThat(Cli.parse(List.of("--journal", flag.toString()), Map.of()).journal())
        .isEqualTo(flag);
    assertThat(Cli.parse(List.of(), Map.of("PSP_JOURNAL", variable.toString())).journal())
        .isEqualTo(variable);
    assertThat(
            Cli.parse(List.of("--journal=" + flag), Map.of("PSP_JOURNAL", variable.toString()))
                .journal())
        .isEqualTo(flag);
  }

  @Test
  void aJournalInAMissingDirectoryOrThatIsADirectoryIsAUsageError(@TempDir Path dir) {
    assertThatThrownBy(
            () ->
                Cli.parse(
                    List.of("--journal", dir.resolve("no/such.journal").toString()), Map.of()))
        .isInstanceOf(Cli.UsageException.class)
        .hasMessageContaining("--journal must be in an existing directory")
        .hasMessageContaining("does not exist");
    assertThatThrownBy(() -> Cli.parse(List.of("--journal", dir.toString()), Map.of()))
        .isInstanceOf(Cli.UsageException.class)
        .hasMessageContaining("is a directory");
    assertThatThrownBy(() -> Cli.parse(List.of("--journal="), Map.of()))
        .isInstanceOf(Cli.UsageException.class)
        .hasMessageContaining("--journal must not be blank");
    assertThatThrownBy(() -> Cli.parse(List.of(), Map.of("PSP_JOURNAL", " ")))
        .isInstanceOf(Cli.UsageException.class)
        .hasMessageContaining("PSP_JOURNAL must not be blank");
  }

  @Test
  void aBadEnvironmentVariableIsAUsageErrorNamingIt() {
    assertThatThrownBy(() -> Cli.parse(List.of(), Map.of("PSP_ERROR_RATE", "2")))
        .isInstanceOf(Cli.UsageException.class)
        .hasMessageContaining("PSP_ERROR_RATE");
    assertThat(Cli.EXIT_USAGE).isEqualTo(2);
  }
}
