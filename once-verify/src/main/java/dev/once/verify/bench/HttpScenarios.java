package dev.once.verify.bench;

import dev.once.verify.harness.OrderBodies;
import dev.once.verify.http.HttpConnection;
import dev.once.verify.http.HttpRequest;
import dev.once.verify.http.HttpResponse;
import dev.once.verify.http.RequestBytes;
import dev.once.verify.load.Operation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The HTTP operations of the scenarios, one keep-alive connection per worker. Each request is
 * written into a reused buffer from a prepared head plus what varies (key, body), so the load
 * generator spends little CPU on the shared cores.
 */
final class HttpScenarios {
  private final int port;
  private final String host;
  private final String apiKey;
  private final List<String> accounts;
  private final byte[][] paymentBodies;

  HttpScenarios(int port, String apiKey, List<String> accounts) {
    this.port = port;
    this.host = "localhost:" + port;
    this.apiKey = apiKey;
    this.accounts = accounts;
    this.paymentBodies = new byte[accounts.size()][];
    for (int i = 0; i < accounts.size(); i++) {
      paymentBodies[i] = paymentBody(accounts.get(i)).getBytes(StandardCharsets.UTF_8);
    }
  }

  /** The body of a payment of 0.01 EUR from {@code account}. */
  static String paymentBody(String account) {
    return "{\"accountId\":\"" + account + "\",\"amount\":\"0.01\",\"currency\":\"EUR\"}";
  }

  /**
   * {@code POST /v1/payments} with a new {@code Idempotency-Key} each ({@code keyPrefix}, worker,
   * sequence), accounts in turn; expects 201 without {@code Idempotent-Replayed}.
   */
  Operation.Factory newPayments(String keyPrefix) {
    byte[] head = paymentHead();
    byte[] keyHeader = ascii("Idempotency-Key: " + keyPrefix + "-");
    return index ->
        new HttpOperation() {
          @Override
          void write(RequestBytes out, long seq) {
            int account = (int) ((index + seq) % paymentBodies.length);
            out.append(head).append(keyHeader).appendDecimal(index).appendAscii("-");
            out.appendDecimal(seq).crlf();
            out.body(paymentBodies[account]);
          }

          @Override
          boolean expected(HttpResponse r) {
            return r.status() == 201 && r.header("Idempotent-Replayed") == null;
          }
        };
  }

  /**
   * Replays of completed keys: key {@code i} of {@code keyPrefix-i} was paid from account {@code i
   * mod accounts} ({@link #replayBody}); every answer must be 201 with {@code Idempotent-Replayed:
   * true}.
   */
  Operation.Factory replays(String keyPrefix, int keyCount, int workers) {
    byte[] head = paymentHead();
    byte[][] keyHeaders = new byte[keyCount][];
    for (int i = 0; i < keyCount; i++) {
      keyHeaders[i] = ascii("Idempotency-Key: " + keyPrefix + "-" + i + "\r\n");
    }
    return index ->
        new HttpOperation() {
          @Override
          void write(RequestBytes out, long seq) {
            int key = (int) ((index + seq * workers) % keyCount);
            out.append(head).append(keyHeaders[key]);
            out.body(paymentBodies[key % paymentBodies.length]);
          }

          @Override
          boolean expected(HttpResponse r) {
            return r.status() == 201 && "true".equals(r.header("Idempotent-Replayed"));
          }
        };
  }

  /** The body that key {@code i} of {@link #replays} was first paid with. */
  String replayBody(int i) {
    return paymentBody(accounts.get(i % accounts.size()));
  }

  /** {@code GET /v1/accounts/{id}}, accounts in turn; expects 200. */
  Operation.Factory getAccount() {
    byte[][] requests = new byte[accounts.size()][];
    for (int i = 0; i < accounts.size(); i++) {
      byte[] head =
          HttpRequest.head(
              "GET", "/v1/accounts/" + accounts.get(i), host, "Authorization: Bearer " + apiKey);
      requests[i] = HttpRequest.write(new RequestBytes(), head, null).toByteArray();
    }
    return index ->
        new HttpOperation() {
          @Override
          void write(RequestBytes out, long seq) {
            out.append(requests[(int) ((index + seq) % requests.length)]);
          }

          @Override
          boolean expected(HttpResponse r) {
            return r.status() == 200;
          }
        };
  }

  /**
   * {@code POST /v1/orders} with a new {@code Idempotency-Key} each ({@code keyPrefix}, worker,
   * sequence), accounts in turn, items drawn at random per worker ({@link OrderBodies}); expects
   * 201.
   */
  Operation.Factory placeOrders(String keyPrefix, OrderBodies bodies) {
    byte[] head =
        HttpRequest.head(
            "POST",
            "/v1/orders",
            host,
            "Authorization: Bearer " + apiKey,
            "Content-Type: application/json");
    byte[] keyHeader = ascii("Idempotency-Key: " + keyPrefix + "-");
    return index ->
        new HttpOperation() {
          // Seeded by the worker's index: the same orders run after run.
          private final SplittableRandom random = new SplittableRandom(index);

          @Override
          void write(RequestBytes out, long seq) {
            out.append(head).append(keyHeader).appendDecimal(index).appendAscii("-");
            out.appendDecimal(seq).crlf();
            bodies.write(out, index + seq, random);
          }

          @Override
          boolean expected(HttpResponse r) {
            return r.status() == 201 && r.header("Idempotent-Replayed") == null;
          }
        };
  }

  private byte[] paymentHead() {
    return HttpRequest.head(
        "POST",
        "/v1/payments",
        host,
        "Authorization: Bearer " + apiKey,
        "Content-Type: application/json");
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** One connection; subclasses write the request and judge the answer. */
  private abstract class HttpOperation implements Operation {
    private final HttpConnection http = new HttpConnection("localhost", port, 30_000);
    private final RequestBytes out = new RequestBytes();

    abstract void write(RequestBytes out, long seq);

    abstract boolean expected(HttpResponse r);

    @Override
    public String run(long seq) throws Exception {
      out.reset();
      write(out, seq);
      HttpResponse r = http.exchange(out);
      return expected(r)
          ? null
          : "unexpected answer: "
              + r
              + " (Idempotent-Replayed: "
              + r.header("Idempotent-Replayed")
              + ")";
    }

    @Override
    public void close() {
      http.close();
    }
  }
}
