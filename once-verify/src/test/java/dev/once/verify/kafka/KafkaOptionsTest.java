package dev.once.verify.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.once.verify.cli.UsageException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** {@code kafka}'s flags, and the listeners a routed listener adds to Kafka's settings. */
class KafkaOptionsTest {

  @Test
  void aRoutedListenerListensOnItsPortAndAdvertisesItsProxy() throws Exception {
    KafkaOptions o =
        KafkaOptions.parse(
            new String[] {
              "--data",
              "kafka-data",
              "--port",
              "9092",
              "--routed-listener",
              "9100:9200",
              "--routed-listener",
              "9101:9201"
            });
    assertThat(o.routed())
        .containsExactly(
            new KafkaOptions.RoutedListener(9100, 9200),
            new KafkaOptions.RoutedListener(9101, 9201));
    Properties p =
        new KafkaCommand(o, new PrintStream(OutputStream.nullOutputStream())).properties();
    assertThat(p.getProperty("listeners"))
        .isEqualTo(
            "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093,ROUTED1://127.0.0.1:9100,"
                + "ROUTED2://127.0.0.1:9101");
    assertThat(p.getProperty("advertised.listeners"))
        .isEqualTo("PLAINTEXT://127.0.0.1:9092,ROUTED1://127.0.0.1:9200,ROUTED2://127.0.0.1:9201");
    assertThat(p.getProperty("listener.security.protocol.map"))
        .isEqualTo("PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,ROUTED1:PLAINTEXT,ROUTED2:PLAINTEXT");
    assertThat(KafkaOptions.parse(new String[] {"--data", "d"}).routed()).isEmpty();
  }

  @Test
  void aBadRoutedListenerIsAUsageError() {
    for (String bad : new String[] {"9100", "9100:", "x:9200", "9100:70000", "9092:9200"}) {
      assertThatExceptionOfType(UsageException.class)
          .as(bad)
          .isThrownBy(
              () ->
                  KafkaOptions.parse(
                      new String[] {"--data", "d", "--port", "9092", "--routed-listener", bad}))
          .withMessageContaining("--routed-listener");
    }
  }
}
