package dev.once.verify.kafka;

import dev.once.verify.UsageException;
import java.nio.file.Path;

/**
 * Flags of {@code kafka}.
 *
 * @param host the address the broker and the controller listen on
 * @param port the clients' port
 * @param controllerPort the KRaft controller's port
 * @param data the storage directory: formatted on the first start, reused on later ones
 */
public record KafkaOptions(String host, int port, int controllerPort, Path data) {

  public static String usage() {
    return "kafka flags (a single-node Kafka broker, Kafka's own KRaft server, broker and"
        + " controller in one):\n"
        + "  --data DIR              storage directory, formatted on the first start and reused"
        + " after\n"
        + "                          (required; topics and committed offsets survive a kill -9)\n"
        + "  --port P                the clients' port (default 9092)\n"
        + "  --controller-port P     the KRaft controller's port (default the clients' port + 1)\n"
        + "  --host H                the address to listen on (default 127.0.0.1)\n"
        + "  Ready when it prints \"Kafka broker ready on HOST:PORT\"; stop it with Ctrl-C or"
        + " SIGTERM.\n"
        + "  Topics are created on first use with 6 partitions; replication factor 1.\n";
  }

  public static KafkaOptions parse(String[] args) throws UsageException {
    String host = "127.0.0.1";
    int port = 9092;
    Integer controllerPort = null;
    Path data = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String name = arg;
      String value;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      } else {
        if (!arg.startsWith("--")) {
          throw new UsageException("kafka: unexpected argument: " + arg);
        }
        if (i + 1 >= args.length) {
          throw new UsageException(arg + " needs a value");
        }
        value = args[++i];
      }
      switch (name) {
        case "--port" -> port = port(name, value);
        case "--controller-port" -> controllerPort = port(name, value);
        case "--host" -> {
          if (!value.matches("[A-Za-z0-9.:\\-]{1,253}")) {
            throw new UsageException("--host: not a host name or address: " + value);
          }
          host = value;
        }
        case "--data" -> {
          if (value.isBlank()) {
            throw new UsageException("--data: empty");
          }
          data = Path.of(value);
        }
        default -> throw new UsageException("unknown kafka flag: " + name);
      }
    }
    if (data == null) {
      throw new UsageException("kafka needs --data DIR, its storage directory");
    }
    if (controllerPort == null) {
      if (port == 65535) {
        throw new UsageException("--port 65535 leaves no port + 1 for the controller");
      }
      controllerPort = port + 1;
    }
    if (controllerPort == port) {
      throw new UsageException("--controller-port must differ from --port: " + port);
    }
    return new KafkaOptions(host, port, controllerPort, data.toAbsolutePath().normalize());
  }

  /** The address clients are told to connect to: the listen host, or localhost for a wildcard. */
  public String advertisedHost() {
    return host.equals("0.0.0.0") || host.equals("::") ? "localhost" : host;
  }

  /** {@code host:port} for a client's {@code bootstrap.servers}. */
  public String bootstrap() {
    String h = advertisedHost();
    return (h.contains(":") ? "[" + h + "]" : h) + ":" + port;
  }

  private static int port(String name, String value) throws UsageException {
    try {
      int n = Integer.parseInt(value);
      if (n < 1 || n > 65535) {
        throw new UsageException(name + ": must be 1 to 65535: " + value);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException(name + ": not a port number: " + value);
    }
  }
}
