package dev.once.verify.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.verify.harness.KafkaBroker;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code once-verify kafka} as a child process on free ports and a temporary directory: a record
 * produced and consumed with kafka-clients, a clean stop (SIGTERM), a start on the same directory
 * that still holds the record and the group's committed offset, then a kill -9 and a start that
 * still holds both records and the offset committed before the kill.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // it waits on a broker process
class KafkaCommandIT {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String TOPIC = "order.placed";
  private static final String GROUP = "once-test.reader";

  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void theBrokerKeepsRecordsAndCommittedOffsetsAcrossAStopAndAKill(@TempDir Path data)
      throws Exception {
    int port = freePort();
    int controller = freePort();
    String bootstrap = "127.0.0.1:" + port;

    Broker first = start(port, controller, data);
    assertThat(first.ready).as(first.ready).contains("(data " + data);
    send(bootstrap, "order-1", "{\"n\":1}");
    List<ConsumerRecord<String, String>> read = readAsGroup(bootstrap, 1);
    assertThat(read.get(0).key()).isEqualTo("order-1");
    assertThat(read.get(0).value()).isEqualTo("{\"n\":1}");

    // SIGTERM, through the handle: Process.destroy() would close the pipe of its output too.
    assertThat(first.process.toHandle().destroy()).isTrue();
    assertThat(first.process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS))
        .as("stops on SIGTERM")
        .isTrue();
    first.reader.join(WAIT.toMillis()); // the rest of its output
    // A JVM stopped by SIGTERM exits 128 + 15 once its shutdown hooks (Kafka's stop) are done.
    assertThat(first.process.exitValue()).as(first.output.toString()).isEqualTo(143);
    assertThat(first.output.toString())
        .as(first.output.toString())
        .contains("Kafka broker stopped");

    Broker second = start(port, controller, data);
    assertThat(values(readFromTheBeginning(bootstrap, 1))).isEqualTo(List.of("{\"n\":1}"));
    assertThat(committed(bootstrap)).isEqualTo(1);
    send(bootstrap, "order-2", "{\"n\":2}");
    assertThat(readFromTheBeginning(bootstrap, 2).size()).isEqualTo(2);

    second.process.destroyForcibly(); // kill -9
    assertThat(second.process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

    start(port, controller, data);
    assertThat(values(readFromTheBeginning(bootstrap, 2)))
        .isEqualTo(List.of("{\"n\":1}", "{\"n\":2}"));
    assertThat(committed(bootstrap)).as("the offset committed before the kill").isEqualTo(1);
    List<ConsumerRecord<String, String>> rest = readAsGroup(bootstrap, 1);
    assertThat(rest.get(0).key())
        .as("the group resumes after its committed offset")
        .isEqualTo("order-2");
  }

  @Test
  void aPortInUseIsAUsageErrorExitTwo(@TempDir Path data) throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      Process p =
          new ProcessBuilder(KafkaBroker.command(List.of(), taken.getLocalPort(), freePort(), data))
              .redirectErrorStream(true)
              .start();
      started.add(p);
      String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(text).isEqualTo(2);
      assertThat(text).as(text).contains("is in use");
    }
  }

  /** A started broker child and what it printed. */
  private record Broker(Process process, String ready, StringBuffer output, Thread reader) {}

  private Broker start(int port, int controller, Path data) throws Exception {
    Process p =
        new ProcessBuilder(KafkaBroker.command(List.of("-Xmx512m"), port, controller, data))
            .redirectErrorStream(true)
            .start();
    started.add(p);
    StringBuffer output = new StringBuffer();
    CompletableFuture<String> ready = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  output.append(line).append('\n');
                  if (line.startsWith(KafkaCommand.READY)) {
                    ready.complete(line);
                  }
                }
              } catch (IOException e) {
                // the process is gone
              }
              ready.completeExceptionally(
                  new IllegalStateException("the broker ended before it was ready:\n" + output));
            },
            "broker-output");
    reader.setDaemon(true);
    reader.start();
    return new Broker(p, ready.get(WAIT.toSeconds(), TimeUnit.SECONDS), output, reader);
  }

  private static void send(String bootstrap, String key, String value) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) WAIT.toMillis());
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, WAIT.toMillis());
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      producer
          .send(new ProducerRecord<>(TOPIC, key, value))
          .get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  /** Reads {@code n} records as the group and commits their offsets. */
  private static List<ConsumerRecord<String, String>> readAsGroup(String bootstrap, int n) {
    Properties p = consumerProperties(bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    try (KafkaConsumer<String, String> consumer = consumer(p)) {
      consumer.subscribe(List.of(TOPIC));
      List<ConsumerRecord<String, String>> got = poll(consumer, n);
      consumer.commitSync(WAIT);
      return got;
    }
  }

  /** Reads {@code n} records from offset 0 of every partition, outside any group. */
  private static List<ConsumerRecord<String, String>> readFromTheBeginning(
      String bootstrap, int n) {
    try (KafkaConsumer<String, String> consumer = consumer(consumerProperties(bootstrap))) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(TOPIC, WAIT).stream()
              .map(i -> new TopicPartition(i.topic(), i.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      return poll(consumer, n);
    }
  }

  private static List<ConsumerRecord<String, String>> poll(
      KafkaConsumer<String, String> consumer, int n) {
    List<ConsumerRecord<String, String>> got = new ArrayList<>();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (got.size() < n) {
      assertThat(System.nanoTime() < deadline)
          .as("only " + got.size() + " of " + n + " records")
          .isTrue();
      consumer.poll(Duration.ofMillis(500)).forEach(got::add);
    }
    got.sort(java.util.Comparator.comparing(ConsumerRecord::key));
    return got;
  }

  /** The group's committed offsets, summed over the topic's partitions. */
  private static long committed(String bootstrap) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin
              .listConsumerGroupOffsets(GROUP)
              .partitionsToOffsetAndMetadata()
              .get(WAIT.toSeconds(), TimeUnit.SECONDS);
      return offsets.values().stream().mapToLong(OffsetAndMetadata::offset).sum();
    }
  }

  private static List<String> values(List<ConsumerRecord<String, String>> records) {
    return records.stream().map(ConsumerRecord::value).toList();
  }

  private static Properties consumerProperties(String bootstrap) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    return p;
  }

  private static KafkaConsumer<String, String> consumer(Properties p) {
    return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
