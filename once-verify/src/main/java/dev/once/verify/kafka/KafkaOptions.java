package dev.once.verify.kafka;

import dev.once.verify.cli.Cli;
import dev.once.verify.cli.UsageException;
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
