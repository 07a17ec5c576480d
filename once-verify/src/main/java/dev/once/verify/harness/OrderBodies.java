package dev.once.verify.harness;

import dev.once.verify.http.RequestBytes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The bodies of {@code POST /v1/orders} of the orders scenario: an account in turn, then 1 to
 * {@value #MAX_ITEMS} distinct SKUs drawn at random from the hot ones, each with a quantity of 1 to
 * {@value #MAX_QUANTITY}. The SKUs stay in the order drawn, not sorted: concurrent reservations
 * then ask for the same product rows in different orders, and only the lock order of the shop's
 * stock consumer (by SKU) keeps them from deadlocking. Written from prepared fragments into the
 * request buffer, so placing an order allocates nothing in the load generator.
 */
public final class OrderBodies {
  /** The most SKUs of one order, so also the fewest SKUs the orders may draw from. */
  public static final int MAX_ITEMS = 3;

  static final int MAX_QUANTITY = 3;

  /** Per account: {@code {"accountId":"…","items":[}. */
  private final byte[][] prefixes;

  /** Per SKU and quantity - 1: {@code {"sku":"…","quantity":q}}. */
  private final byte[][][] items;

  private static final byte[] COMMA = {','};
  private static final byte[] END = {']', '}'};

  public OrderBodies(List<String> accounts, List<String> skus) {
    if (skus.size() < MAX_ITEMS) {
      throw new IllegalArgumentException("need at least " + MAX_ITEMS + " SKUs, got " + skus);
    }
    prefixes = new byte[accounts.size()][];
    for (int i = 0; i < accounts.size(); i++) {
      prefixes[i] = utf8("{\"accountId\":\"" + accounts.get(i) + "\",\"items\":[");
    }
    items = new byte[skus.size()][MAX_QUANTITY][];
    for (int s = 0; s < skus.size(); s++) {
      for (int q = 1; q <= MAX_QUANTITY; q++) {
        items[s][q - 1] = utf8("{\"sku\":\"" + skus.get(s) + "\",\"quantity\":" + q + "}");
      }
    }
  }

  int accounts() {
    return prefixes.length;
  }

  /**
   * Appends {@code Content-Length}, the blank line and the body of one order from account {@code
   * account} (modulo the number of accounts), drawn with {@code random}.
   */
  public void write(RequestBytes out, long account, SplittableRandom random) {
    int skus = items.length;
    int count = 1 + random.nextInt(MAX_ITEMS);
    // Distinct SKUs by redrawing a repeat; at most 3 of 10, so redraws are rare.
    int a = random.nextInt(skus);
    int b = -1;
    int c = -1;
    if (count > 1) {
      do {
        b = random.nextInt(skus);
      } while (b == a);
    }
    if (count > 2) {
      do {
        c = random.nextInt(skus);
      } while (c == a || c == b);
    }
    byte[] prefix = prefixes[(int) (account % prefixes.length)];
    byte[] first = items[a][random.nextInt(MAX_QUANTITY)];
    byte[] second = b < 0 ? null : items[b][random.nextInt(MAX_QUANTITY)];
    byte[] third = c < 0 ? null : items[c][random.nextInt(MAX_QUANTITY)];
    int length =
        prefix.length
            + first.length
            + (second == null ? 0 : 1 + second.length)
            + (third == null ? 0 : 1 + third.length)
            + END.length;
    out.appendAscii("Content-Length: ").appendDecimal(length).crlf().crlf();
    out.append(prefix).append(first);
    if (second != null) {
      out.append(COMMA).append(second);
    }
    if (third != null) {
      out.append(COMMA).append(third);
    }
    out.append(END);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
