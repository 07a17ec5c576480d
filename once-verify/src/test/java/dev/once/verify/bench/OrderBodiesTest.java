package dev.once.verify.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.once.json.JsonCanonicalizer;
import dev.once.verify.http.RequestBytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class OrderBodiesTest {
  private static final Pattern ITEM =
      Pattern.compile("\\{\"sku\":\"(hot-\\d)\",\"quantity\":(\\d+)\\}");
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
      assertTrue(text.startsWith("Content-Length: "), text);
      int blank = text.indexOf("\r\n\r\n");
      String body = text.substring(blank + 4);
      assertEquals(
          Integer.parseInt(text.substring("Content-Length: ".length(), blank)),
          body.getBytes(StandardCharsets.UTF_8).length,
          text);
      json.canonicalize(body); // throws on malformed JSON
      assertTrue(body.startsWith("{\"accountId\":\"" + (i % 2 == 0 ? "acc_a" : "acc_b")), body);
      List<String> drawn = new ArrayList<>();
      Matcher m = ITEM.matcher(body);
      while (m.find()) {
        drawn.add(m.group(1));
        int q = Integer.parseInt(m.group(2));
        assertTrue(q >= 1 && q <= OrderBodies.MAX_QUANTITY, body);
        quantities.add(q);
      }
      assertTrue(drawn.size() >= 1 && drawn.size() <= OrderBodies.MAX_ITEMS, body);
      assertEquals(drawn.size(), new HashSet<>(drawn).size(), "distinct SKUs: " + body);
      counts.add(drawn.size());
      skus.addAll(drawn);
      List<String> sorted = new ArrayList<>(drawn);
      sorted.sort(null);
      if (!sorted.equals(drawn)) {
        unsorted++;
      }
    }
    assertEquals(Set.of(1, 2, 3), counts);
    assertEquals(Set.of(1, 2, 3), quantities);
    assertEquals(new HashSet<>(SKUS), skus);
    // Unsorted orders are what exercise the shop's lock order: about half of the multi-SKU ones.
    assertTrue(unsorted > 500, "unsorted: " + unsorted);
  }

  @Test
  void needsEnoughSkusToDrawDistinctOnes() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new OrderBodies(List.of("acc"), List.of("hot-0", "hot-1")));
  }
}
