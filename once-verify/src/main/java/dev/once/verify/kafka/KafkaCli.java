package dev.once.verify.kafka;

import dev.once.verify.cli.Cli;
import dev.once.verify.cli.Subcommand;
import dev.once.verify.cli.UsageException;
import java.nio.file.Path;
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
    return new KafkaOptions(host, clients, controller, Path.of(data).toAbsolutePath().normalize());
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
