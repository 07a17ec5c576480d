package dev.once.verify.kafka;

import dev.once.verify.cli.Cli;
import dev.once.verify.cli.Subcommand;
import dev.once.verify.cli.UsageException;
import dev.once.verify.kafka.KafkaOptions.RoutedListener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kafka}'s command line: a single-node broker's storage, host and ports. */
@Command(
    name = "kafka",
    description = {
      "A single-node Kafka broker (Kafka's own KRaft server, broker and controller in one) for the"
          + " shop's SHOP_KAFKA_BOOTSTRAP and for chaos --kafka; its data survives restarts."
    },
    footer = {
      "Ready when it prints \"Kafka broker ready on HOST:PORT\"; stop it with Ctrl-C or SIGTERM.",
      "Topics are created on first use with 6 partitions; replication factor 1."
    })
public final class KafkaCli extends Subcommand<KafkaOptions> {
  @Option(
      names = "--data",
      paramLabel = "DIR",
      description = {
        "storage directory, formatted on the first start and reused after (required; topics and"
            + " committed offsets survive a kill -9)"
      })
  String data;

  @Option(names = "--port", paramLabel = "P", description = "the clients' port (default 9092)")
  String port = "9092";

  @Option(
      names = "--controller-port",
      paramLabel = "P",
      description = "the KRaft controller's port (default the clients' port + 1)")
  String controllerPort;

  @Option(
      names = "--host",
      paramLabel = "H",
      description = "the address to listen on (default 127.0.0.1)")
  String host = "127.0.0.1";

  @Option(
      names = "--routed-listener",
      paramLabel = "PORT:ADVERTISED",
      description =
          "a further client listener on PORT whose clients are told to connect to ADVERTISED (a"
              + " proxy's port, which forwards to PORT); repeatable")
  List<String> routed = new ArrayList<>();

  @Override
  public KafkaOptions options() throws UsageException {
    if (!host.matches("[A-Za-z0-9.:\\-]{1,253}")) {
      throw new UsageException("--host: not a host name or address: " + host);
    }
    if (data == null) {
      throw new UsageException("kafka needs --data DIR, its storage directory");
    }
    if (data.isBlank()) {
      throw new UsageException("--data: empty");
    }
    int clients = port("--port", port);
    int controller;
    if (controllerPort == null) {
      if (clients == 65535) {
        throw new UsageException("--port 65535 leaves no port + 1 for the controller");
      }
      controller = clients + 1;
    } else {
      controller = port("--controller-port", controllerPort);
    }
    if (controller == clients) {
      throw new UsageException("--controller-port must differ from --port: " + clients);
    }
    List<RoutedListener> listeners = new ArrayList<>();
    for (String r : routed) {
      String[] ports = r.split(":", -1);
      if (ports.length != 2) {
        throw new UsageException("--routed-listener: not PORT:ADVERTISED_PORT: " + r);
      }
      RoutedListener l =
          new RoutedListener(
              port("--routed-listener", ports[0]), port("--routed-listener", ports[1]));
      if (l.port() == clients || l.port() == controller) {
        throw new UsageException("--routed-listener: port " + l.port() + " is taken already");
      }
      listeners.add(l);
    }
    return new KafkaOptions(
        host,
        clients,
        controller,
        Path.of(data).toAbsolutePath().normalize(),
        List.copyOf(listeners));
  }

  private static int port(String name, String value) throws UsageException {
    int n =
        Cli.integer(
            value, Integer.MIN_VALUE, Integer.MAX_VALUE, name + ": not a port number: " + value);
    if (n < 1 || n > 65535) {
      throw new UsageException(name + ": must be 1 to 65535: " + value);
    }
    return n;
  }

  @Override
  protected int run(KafkaOptions options) throws Exception {
    return new KafkaCommand(options, System.out).run();
  }
}
