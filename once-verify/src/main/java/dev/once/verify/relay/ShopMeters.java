package dev.once.verify.relay;

import dev.once.verify.harness.ShopApi;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The running shop's meters from its {@code /actuator/prometheus}, each summed over its labels, by
 * name: the relay's own counters ({@code once_outbox_relay_*_total}) and, where the shop's Kafka
 * clients are bound to its meter registry, their {@code kafka_*} counters. Read by name, so that
 * the benchmark needs no API of the shop's; a meter the shop does not have is NaN (printed n/a).
 */
final class ShopMeters {
  private final Map<String, Double> values;

  private ShopMeters(Map<String, Double> values) {
    this.values = values;
  }

  /** The meters of the shop on {@code port} now. */
  static ShopMeters read(int port) throws IOException {
    try (ShopApi api = new ShopApi(port)) {
      return parse(api.metrics());
    }
  }

  /** Prometheus' text format: {@code name{labels} value}, comments and blank lines skipped. */
  static ShopMeters parse(String text) {
    Map<String, Double> values = new TreeMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int nameEnd = brace >= 0 ? brace : line.indexOf(' ');
      int valueStart = brace >= 0 ? line.lastIndexOf('}') + 1 : nameEnd;
      try {
        double value = Double.parseDouble(line.substring(valueStart).strip().split(" ")[0]);
        values.merge(line.substring(0, nameEnd), value, Double::sum);
      } catch (NumberFormatException | IndexOutOfBoundsException e) {
        // not a sample: skipped
      }
    }
    return new ShopMeters(values);
  }

  /** The meter's value summed over its labels, or NaN if the shop has none of that name. */
  double get(String name) {
    return values.getOrDefault(name, Double.NaN);
  }

  /** {@code rows / calls} of two relay counters, e.g. rows per claim; NaN where unknown. */
  double ratio(String rows, String calls) {
    return get(rows) / get(calls);
  }
}
