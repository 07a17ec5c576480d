package dev.once.verify.kafka;

import dev.once.verify.cli.Cli;
import dev.once.verify.cli.UsageException;
import java.nio.file.Path;
import java.util.List;

/**
 * Flags of {@code kafka}.
 *
 * @param host the address the broker and the controller listen on
 * @param port the clients' port
 * @param controllerPort the KRaft controller's port
 * @param data the storage directory: formatted on the first start, reused on later ones
 * @param routed further client listeners, each advertised at another port (a proxy's)
 */
public record KafkaOptions(
    String host, int port, int controllerPort, Path data, List<RoutedListener> routed) {

  /**
   * A further client listener for one client that reaches the broker through a proxy: it listens on
   * {@code port} and tells its clients to connect to {@code advertisedPort}, where the proxy
   * listens, so that every connection of that client goes through the proxy ({@code chaos
   * --network-faults} with {@code --kafka}). Kafka names it {@code ROUTED<n>}.
   *
   * @param port where the broker listens for it
   * @param advertisedPort where its clients connect (the proxy)
   */
  public record RoutedListener(int port, int advertisedPort) {
    /** As the flag spells it: {@code PORT:ADVERTISED_PORT}. */
    @Override
    public String toString() {
      return port + ":" + advertisedPort;
    }
  }

  /** {@code kafka --help}: the flags and their defaults. */
  public static String usage() {
    return Cli.usage(new KafkaCli());
  }

  /** Parses the flags after {@code kafka} ({@link KafkaCli}). */
  public static KafkaOptions parse(String[] args) throws UsageException {
    return Cli.parse(new KafkaCli(), args).options();
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
}
