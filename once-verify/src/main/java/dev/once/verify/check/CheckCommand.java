package dev.once.verify.check;

import dev.once.verify.report.Verdict;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

/**
 * {@code check}: connects to the shop's database, evaluates {@link Invariants}, prints the verdict
 * table, writes the JSON report if asked. Exit 0 when every invariant holds (warnings allowed), 1
 * on any violation.
 */
public final class CheckCommand {
  private final CheckOptions options;
  private final PrintStream out;

  public CheckCommand(CheckOptions options) {
    this(options, System.out);
  }

  CheckCommand(CheckOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  public int run() throws SQLException, IOException {
    Properties properties = new Properties();
    options.user().ifPresent(u -> properties.setProperty("user", u));
    options.password().ifPresent(p -> properties.setProperty("password", p));
    List<Verdict> verdicts;
    try (Connection c = DriverManager.getConnection(options.jdbcUrl(), properties)) {
      verdicts = new Invariants(options.allowDead()).evaluate(c);
    }
    out.print(CheckReport.table(verdicts));
    if (options.report().isPresent()) {
      Path report = options.report().get();
      Path parent = report.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(report, CheckReport.json(verdicts), StandardCharsets.UTF_8);
      out.println("report: " + report);
    }
    return CheckReport.passed(verdicts) ? 0 : 1;
  }
}
