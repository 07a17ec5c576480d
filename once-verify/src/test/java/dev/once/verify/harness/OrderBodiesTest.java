package dev.once.verify.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.once.json.JsonCanonicalizer;
import dev.once.verify.http.RequestBytes;
import dev.once.verify.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class OrderBodiesTest {
  private static final List<String> SKUS =
      List.of(
          "hot-0", "hot-1", "hot-2", "hot-3", "hot-4", "hot-5", "hot-6", "hot-7", "hot-8", "hot-9");

  @Test
  void ordersOfOneToThreeDistinctSkusInTheOrderDrawn() {
    OrderBodies bodies = new OrderBodies(List.of("acc_a", "acc_b"), SKUS);
    SplittableRandom random = new SplittableRandom(1);
    JsonCanonicalizer json = JsonCanonicalizer.create();
    Set<Integer> counts = new HashSet<>();
    Set<Integer> quantities = new HashSet<>();
    Set<String> skus = new HashSet<>();
    int unsorted = 0;
    for (int i = 0; i < 2_000; i++) {
      RequestBytes out = new RequestBytes();
      bodies.write(out, i, random);
      String text = new String(out.toByteArray(), StandardCharsets.UTF_8);
      assertThat(text).as(text).startsWith("Content-Length: ");
      // The head is one Content-Length line, then the blank line: HTTP, not JSON.
      String[] headAndBody = text.split("\r\n\r\n", 2);
      String body = headAndBody[1];
      assertThat(body.getBytes(StandardCharsets.UTF_8).length)
          .as(text)
          .isEqualTo(Integer.parseInt(headAndBody[0].substring("Content-Length: ".length())));
      json.canonicalize(body); // throws on malformed JSON
      JsonNode order = Json.mapper().readTree(body);
      assertThat(order.path("accountId").stringValue())
          .as(body)
          .isEqualTo(i % 2 == 0 ? "acc_a" : "acc_b");
      assertThat(body).as("accountId comes first: " + body).startsWith("{\"accountId\":");
      List<String> drawn = new ArrayList<>();
      for (JsonNode item : order.path("items")) {
        assertThat(item.propertyNames()).as(body).containsExactly("sku", "quantity");
        drawn.add(item.path("sku").stringValue());
        assertThat(item.path("quantity").isInt()).as(body).isTrue();
        int q = item.path("quantity").intValue();
        assertThat(q >= 1 && q <= OrderBodies.MAX_QUANTITY).as(body).isTrue();
        quantities.add(q);
      }
      assertThat(drawn.size() >= 1 && drawn.size() <= OrderBodies.MAX_ITEMS).as(body).isTrue();
      assertThat(new HashSet<>(drawn).size()).as("distinct SKUs: " + body).isEqualTo(drawn.size());
      counts.add(drawn.size());
      skus.addAll(drawn);
      List<String> sorted = new ArrayList<>(drawn);
      sorted.sort(null);
      if (!sorted.equals(drawn)) {
        unsorted++;
      }
    }
    assertThat(counts).isEqualTo(Set.of(1, 2, 3));
    assertThat(quantities).isEqualTo(Set.of(1, 2, 3));
    assertThat(skus).isEqualTo(new HashSet<>(SKUS));
    // Unsorted orders are what exercise the shop's lock order: about half of the multi-SKU ones.
    assertThat(unsorted > 500).as("unsorted: " + unsorted).isTrue();
  }

  @Test
  void needsEnoughSkusToDrawDistinctOnes() {
    assertThatExceptionOfType(IllegalArgumentException.class)
        .isThrownBy(() -> new OrderBodies(List.of("acc"), List.of("hot-0", "hot-1")));
  }
}
