package dev.once.verify.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A single-node Kafka broker as a child process: {@code once-verify kafka} from this very jar (or
 * class path) on its ports and data directory, ready once its log shows {@link #READY}. What {@code
 * chaos --kafka} and {@code relay}'s Kafka phases start; restartable after a kill, on the same
 * data.
 */
public final class KafkaBroker implements AutoCloseable {
  /** The line {@code once-verify kafka} prints once the broker serves, followed by its address. */
  public static final String READY = "Kafka broker ready on ";

  private final int port;
  private final int controllerPort;
  private final Path data;
  private final List<String> jvmOptions;
  private final List<String> routedListeners;
  private volatile ChildProcess process;

  /**
   * @param data its storage directory, formatted on the first start and reused on later ones
   * @param jvmOptions the broker JVM's options, e.g. {@code -Xmx384m}
   * @param routedListeners {@code --routed-listener} values ({@code PORT:ADVERTISED_PORT}), if any
   */
  public KafkaBroker(
      int port,
      int controllerPort,
      Path data,
      List<String> jvmOptions,
      List<String> routedListeners) {
    this.port = port;
    this.controllerPort = controllerPort;
    this.data = data;
    this.jvmOptions = List.copyOf(jvmOptions);
    this.routedListeners = List.copyOf(routedListeners);
  }

  /** The broker's {@code bootstrap.servers}. */
  public String bootstrap() {
    return "127.0.0.1:" + port;
  }

  /**
   * Starts the broker unless it runs, its output appended to {@code log}, and waits for its ready
   * line in what this start appended.
   */
  public synchronized void start(Path log) throws IOException, InterruptedException {
    if (isAlive()) {
      return;
    }
    long from = Files.isRegularFile(log) ? Files.size(log) : 0;
    List<String> command = command(jvmOptions, port, controllerPort, data);
    for (String listener : routedListeners) {
      command.addAll(List.of("--routed-listener", listener));
    }
    ChildProcess started = ChildProcess.start("the Kafka broker", command, Map.of(), log);
    process = started;
    started.awaitReady(
        () -> {
          String text = Files.readString(log);
          return text.length() > from
              && text.substring((int) Math.min(from, text.length())).contains(READY);
        });
  }

  /**
   * The command line of {@code once-verify kafka} from this JVM's class path, with {@code
   * jvmOptions}, on {@code port} and {@code controllerPort}, storing in {@code data}; a mutable
   * list, for further flags.
   */
  public static List<String> command(
      List<String> jvmOptions, int port, int controllerPort, Path data) {
    List<String> command = new ArrayList<>();
    command.add(ChildProcess.java());
    command.addAll(jvmOptions);
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            "dev.once.verify.Main",
            "kafka",
            "--port",
            Integer.toString(port),
            "--controller-port",
            Integer.toString(controllerPort),
            "--data",
            data.toString()));
    return command;
  }

  /** Whether the broker's process runs. */
  public boolean isAlive() {
    ChildProcess p = process;
    return p != null && p.isAlive();
  }

  /** SIGKILL, as a crash would, after a start in progress; waits until it is gone. */
  public synchronized void kill() throws InterruptedException {
    if (process != null) {
      process.kill();
    }
  }

  /**
   * Stops the broker (SIGTERM, then SIGKILL after 20 s), one that is starting too, without waiting
   * for its start. Safe to repeat.
   */
  @Override
  public void close() throws InterruptedException {
    ChildProcess p = process;
    if (p != null) {
      p.close();
    }
  }
}
