package dev.once.verify.kafka;

import dev.once.verify.cli.UsageException;
import dev.once.verify.harness.KafkaBroker;
import dev.once.verify.harness.ShutdownHook;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * {@code once-verify kafka}: a single-node Kafka for development and for {@code chaos --kafka}. It
 * runs Kafka's own KRaft server ({@link KafkaRaftServer}, broker and controller in one process)
 * from the Kafka jars, formats its storage directory with Kafka's {@link Formatter} on the first
 * start (a fresh cluster id) and reuses it on every later one, so topics, records and committed
 * offsets survive a restart, a kill -9 included. On SIGTERM or Ctrl-C it stops Kafka cleanly (the
 * JVM then exits 143 or 130); exit 1 if Kafka would not start, 2 on wrong flags, a port in use or a
 * directory it cannot write.
 */
public final class KafkaCommand {
  /** The line a caller waits for in the broker's log ({@link KafkaBroker}, chaos and relay). */
  public static final String READY = KafkaBroker.READY;

  private static final String META = "meta.properties";
  private static final long READY_TIMEOUT_SECONDS = 120;

  private final KafkaOptions options;
  private final PrintStream out;

  public KafkaCommand(KafkaOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /** Starts the broker, prints the ready line, and serves until the JVM is asked to stop. */
  public int run() throws Exception {
    // The client of the ready check closes its connections twice on shutdown: noise, not news.
    System.setProperty(
        "org.slf4j.simpleLogger.log.org.apache.kafka.clients.NetworkClient",
        System.getProperty(
            "org.slf4j.simpleLogger.log.org.apache.kafka.clients.NetworkClient", "error"));
    Broker broker = start();
    // Runs until SIGTERM or Ctrl-C, which stop the broker cleanly: the hook is never withdrawn.
    ShutdownHook.on(
        "kafka-stop",
        () -> {
          out.println("Kafka broker stopping");
          out.flush();
          broker.close();
          out.println("Kafka broker stopped (data " + options.data() + ")");
          out.flush();
        });
    out.println(READY + options.bootstrap() + " (data " + options.data() + ")");
    out.flush();
    broker.server.awaitShutdown();
    return 0;
  }

  /**
   * Checks the directory and the ports, formats the directory if it is new, starts Kafka and waits
   * until a client can reach it.
   */
  public Broker start() throws Exception {
    Path data = options.data();
    writable(data);
    InetAddress address;
    try {
      address = InetAddress.getByName(options.host());
    } catch (UnknownHostException e) {
      throw new UsageException("--host: unknown host: " + options.host());
    }
    free(address, options.port(), "--port");
    free(address, options.controllerPort(), "--controller-port");
    for (KafkaOptions.RoutedListener l : options.routed()) {
      free(address, l.port(), "--routed-listener");
    }

    Properties props = properties();
    KafkaConfig config = new KafkaConfig(props);
    String clusterId = format(data);
    out.println("Kafka storage " + data + " (cluster id " + clusterId + ")");
    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    try {
      server.startup();
      awaitReachable();
    } catch (Exception | Error e) {
      try {
        server.shutdown();
      } catch (RuntimeException ignored) {
        // already broken
      }
      throw new IOException("Kafka did not start: " + e.getMessage(), e);
    }
    return new Broker(server);
  }

  /** A running broker. */
  public static final class Broker implements AutoCloseable {
    private final KafkaRaftServer server;
    private boolean closed;

    Broker(KafkaRaftServer server) {
      this.server = server;
    }

    @Override
    public synchronized void close() {
      if (closed) {
        return;
      }
      closed = true;
      server.shutdown();
      server.awaitShutdown();
    }
  }

  /** Kafka's settings for one combined broker and controller on this machine. */
  Properties properties() throws IOException {
    String host = options.host();
    String listenHost = host.contains(":") ? "[" + host + "]" : host;
    Properties p = new Properties();
    p.load(
        new StringReader(
            """
            process.roles=broker,controller
            node.id=1
            controller.listener.names=CONTROLLER
            inter.broker.listener.name=PLAINTEXT
            listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
            num.partitions=6
            default.replication.factor=1
            auto.create.topics.enable=true
            offsets.topic.replication.factor=1
            offsets.topic.num.partitions=6
            transaction.state.log.replication.factor=1
            transaction.state.log.min.isr=1
            transaction.state.log.num.partitions=6
            share.coordinator.state.topic.replication.factor=1
            share.coordinator.state.topic.min.isr=1
            group.initial.rebalance.delay.ms=0
            """));
    p.put("controller.quorum.voters", "1@" + listenHost + ":" + options.controllerPort());
    p.put(
        "listeners",
        "PLAINTEXT://"
            + listenHost
            + ":"
            + options.port()
            + ",CONTROLLER://"
            + listenHost
            + ":"
            + options.controllerPort());
    p.put("advertised.listeners", "PLAINTEXT://" + options.bootstrap());
    String advertised = options.advertisedHost();
    advertised = advertised.contains(":") ? "[" + advertised + "]" : advertised;
    for (int i = 0; i < options.routed().size(); i++) {
      KafkaOptions.RoutedListener l = options.routed().get(i);
      String name = "ROUTED" + (i + 1);
      p.put("listeners", p.get("listeners") + "," + name + "://" + listenHost + ":" + l.port());
      p.put(
          "advertised.listeners",
          p.get("advertised.listeners")
              + ","
              + name
              + "://"
              + advertised
              + ":"
              + l.advertisedPort());
      p.put(
          "listener.security.protocol.map",
          p.get("listener.security.protocol.map") + "," + name + ":PLAINTEXT");
    }
    p.put("log.dirs", options.data().toString());
    return p;
  }

  /**
   * The cluster id of {@code data}: read from its {@code meta.properties} if Kafka formatted it
   * before, else a fresh one that Kafka's {@link Formatter} writes there now.
   */
  private String format(Path data) throws Exception {
    Path meta = data.resolve(META);
    if (Files.isRegularFile(meta)) {
      Properties p = new Properties();
      try (InputStream in = Files.newInputStream(meta)) {
        p.load(in);
      }
      String id = p.getProperty("cluster.id");
      if (id == null) {
        throw new UsageException(meta + " holds no cluster.id: not a Kafka storage directory");
      }
      return id;
    }
    String clusterId = Uuid.randomUuid().toString();
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    new Formatter()
        .setPrintStream(new PrintStream(said, true, StandardCharsets.UTF_8))
        .setNodeId(1)
        .setClusterId(clusterId)
        .setControllerListenerName("CONTROLLER")
        .setMetadataLogDirectory(data.toString())
        .setDirectories(List.of(data.toString()))
        .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
        .run();
    return clusterId;
  }

  /** Waits until an admin client on the advertised address sees the broker. */
  private void awaitReachable() throws Exception {
    Map<String, Object> config =
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            options.bootstrap(),
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
            10_000,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            (int) TimeUnit.SECONDS.toMillis(READY_TIMEOUT_SECONDS));
    try (Admin admin = Admin.create(config)) {
      admin.describeCluster().nodes().get(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      admin.listTopics().names().get(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
  }

  private static void writable(Path data) throws UsageException {
    try {
      Files.createDirectories(data);
    } catch (IOException | SecurityException e) {
      throw new UsageException("--data: cannot create " + data + ": " + e);
    }
    if (!Files.isDirectory(data)) {
      throw new UsageException("--data: not a directory: " + data);
    }
    try {
      Path probe = Files.createTempFile(data, ".once-verify-probe", ".tmp");
      Files.delete(probe);
    } catch (IOException | SecurityException e) {
      throw new UsageException("--data: cannot write in " + data + ": " + e.getMessage());
    }
  }

  private static void free(InetAddress address, int port, String flag) throws UsageException {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(address, port));
    } catch (BindException e) {
      throw new UsageException(
          flag + ": port " + port + " on " + address.getHostAddress() + " is in use");
    } catch (IOException e) {
      throw new UsageException(
          flag + ": cannot listen on " + address.getHostAddress() + ":" + port + ": " + e);
    }
  }
}
