package dev.once.shop.bench;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The Kafka clients' own counters in this JVM, summed over every client, from the MBeans their
 * JmxReporter registers on the platform MBeanServer (the shop runs in the benchmark's JVM). An
 * MBean goes when its client closes, so {@link #sample()} is called before the shop closes; the
 * shop's clients are made when it starts, so their counters cover exactly its life.
 */
final class KafkaClientCounts {
  private KafkaClientCounts() {}

  /** MBean pattern, attribute, and the name the sum goes under. */
  private static final String[][] COUNTERS = {
    {"kafka.producer:type=producer-metrics,*", "request-total", "producer requests"},
    {"kafka.producer:type=producer-metrics,*", "record-send-total", "producer records sent"},
    {"kafka.consumer:type=consumer-metrics,*", "request-total", "consumer requests"},
    {"kafka.consumer:type=consumer-fetch-manager-metrics,*", "fetch-total", "consumer fetches"},
    {
      "kafka.consumer:type=consumer-fetch-manager-metrics,*",
      "records-consumed-total",
      "consumer records"
    },
    {"kafka.consumer:type=consumer-coordinator-metrics,*", "commit-total", "consumer commits"},
  };

  /** Each counter summed over the clients now (absent: no such client or attribute). */
  static Map<String, Double> sample() {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Map<String, Double> sums = new LinkedHashMap<>();
    for (String[] c : COUNTERS) {
      try {
        Set<ObjectName> names = server.queryNames(new ObjectName(c[0]), null);
        for (ObjectName name : names) {
          // per-topic and per-partition MBeans share the type: only the client-wide one counts
          if (name.getKeyProperty("topic") != null || name.getKeyProperty("node-id") != null) {
            continue;
          }
          Object value = server.getAttribute(name, c[1]);
          if (value instanceof Number n && Double.isFinite(n.doubleValue())) {
            sums.merge(c[2], n.doubleValue(), Double::sum);
          }
        }
      } catch (Exception e) {
        // not available: left out, printed as n/a
      }
    }
    return sums;
  }
}
