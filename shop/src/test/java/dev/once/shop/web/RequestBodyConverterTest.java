package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.json.JsonCanonicalizer;
import dev.once.json.MalformedJsonException;
import dev.once.shop.accounts.Money;
import dev.once.shop.problems.InvalidRequestException;
import dev.once.shop.problems.ShopProblem;
import dev.once.spring.OnceProperties;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.catalina.connector.ClientAbortException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.core.ResolvableType;
import org.springframework.mock.http.MockHttpInputMessage;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** How request bodies are read, and their limits and syntax rules, without a server. */
class RequestBodyConverterTest {
  private static final Validator VALIDATOR =
      Validation.buildDefaultValidatorFactory().getValidator();

  /** 100 bytes and 3 levels, to reach the limits with small documents. */
  private final RequestBodyConverter converter = converter(DataSize.ofBytes(100), 3);

  /** The converter as the shop configures it: Once's defaults, 1 MiB and 64 levels. */
  private final RequestBodyConverter shopConverter = converter(DataSize.ofMegabytes(1), 64);

  record Any(JsonNode a) {}

  record Fields(String name, @Money.Amount String amount) {}

  @Test
  void readsAnObjectIntoItsRecord() {
    record Doc(String a, JsonNode b) {}
    Doc doc = (Doc) read(converter, Doc.class, "{\"a\":\"x\",\"b\":[1,{\"c\":2}]}");
    assertThat(doc.a()).isEqualTo("x");
    assertThat(doc.b().get(1).get("c").asInt()).isEqualTo(2);
  }

  @Test
  void depthLimitIsInclusive() {
    read(converter, Any.class, "{\"a\":[[1]]}");
    assertRefused("{\"a\":[[[1]]]}", ShopProblem.JSON_TOO_DEEP);
  }

  @Test
  void sizeLimitIsInclusive() {
    String exactly100 = "{\"a\":\"" + "x".repeat(92) + "\"}";
    assertThat(exactly100).hasSize(100);
    read(converter, Any.class, exactly100);
    assertRefused("{\"a\":\"" + "x".repeat(93) + "\"}", ShopProblem.PAYLOAD_TOO_LARGE);
  }

  @Test
  void refusesDuplicatesTrailingContentAndEmptiness() {
    assertRefused("{\"a\":1,\"a\":2}", ShopProblem.MALFORMED_JSON);
    assertRefused("{\"a\":1}{}", ShopProblem.MALFORMED_JSON);
    assertRefused("{\"a\":1} x", ShopProblem.MALFORMED_JSON);
    assertRefused("", ShopProblem.MALFORMED_JSON);
    assertRefused("   ", ShopProblem.MALFORMED_JSON);
    assertRefused("{\"a\":01}", ShopProblem.MALFORMED_JSON);
    assertRefused("{\"a\":NaN}", ShopProblem.MALFORMED_JSON);
  }

  @Test
  void refusesDocumentsThatAreNotObjects() {
    assertRefused("[]", ShopProblem.VALIDATION_FAILED);
    assertRefused("1", ShopProblem.VALIDATION_FAILED);
    assertRefused("null", ShopProblem.VALIDATION_FAILED);
  }

  @Test
  void namesAnUnknownMemberShortened() {
    assertRefusedField("{\"a\":1,\"b\":2}", ShopProblem.VALIDATION_FAILED, "b");
    assertRefusedField(
        "{\"" + "n".repeat(70) + "\":1}", ShopProblem.VALIDATION_FAILED, "n".repeat(64) + "…");
  }

  /** No coercion: a number, boolean, array or object where a string belongs is refused. */
  @ParameterizedTest
  @ValueSource(strings = {"1", "1.5", "1e400", "true", "[\"x\"]", "[]", "{\"x\":\"y\"}"})
  void refusesOtherJsonTypesInStringFieldsWithTheFieldsProblem(String value) {
    assertRefusedField(
        "{\"name\":" + value + "}", Fields.class, ShopProblem.VALIDATION_FAILED, "name");
    assertRefusedField(
        "{\"amount\":" + value + "}", Fields.class, ShopProblem.INVALID_AMOUNT, "amount");
  }

  /** Of several faults: an unknown member first, then the first in the record's order. */
  @Test
  void answersTheSameFaultHoweverTheMembersAreOrdered() {
    for (String body : List.of("{\"amount\":1,\"name\":2}", "{\"name\":2,\"amount\":1}")) {
      assertRefusedField(body, Fields.class, ShopProblem.VALIDATION_FAILED, "name");
    }
    for (String body : List.of("{\"amount\":1,\"x\":\"\"}", "{\"x\":\"\",\"amount\":1}")) {
      assertRefusedField(body, Fields.class, ShopProblem.VALIDATION_FAILED, "x");
    }
  }

  /** Absent and null members are left to the record's constraints ({@code @NotNull}). */
  @Test
  void absentAndNullMembersAreNull() {
    assertThat(read(converter, Fields.class, "{\"name\":null}")).isEqualTo(new Fields(null, null));
    assertThat(read(converter, Fields.class, "{}")).isEqualTo(new Fields(null, null));
  }

  @Test
  void acceptsNamesNumbersAndStringsOfAnyLengthWithinTheBodyLimit() {
    JsonNode longName = tree("{\"" + "n".repeat(60_000) + "\":1}");
    assertThat(longName.has("n".repeat(60_000))).isTrue();
    JsonNode longNumber =
        tree("{\"x\":0." + "0".repeat(2_000) + "1,\"y\":1" + "0".repeat(300) + "}");
    assertThat(longNumber.get("x").isNumber()).isTrue();
    assertThat(longNumber.get("y").isNumber()).isTrue();
    int room = 1024 * 1024 - 10;
    assertThat(tree("{\"x\":0." + "1".repeat(room) + "}").get("x").isNumber()).isTrue();
    assertThat(tree("{\"" + "n".repeat(room) + "\":1}")).isNotNull();
    assertThat(tree("{\"x\":\"" + "s".repeat(room) + "\"}")).isNotNull();
  }

  /**
   * Parser agreement: every document that Once's canonicalizer accepts within the same limits is
   * read here too, so that the filter never passes a body that the handler calls malformed. A
   * corpus of edge cases, then random documents.
   */
  @Test
  void readsEveryDocumentThatOncesCanonicalizerAccepts() {
    record K(JsonNode k) {}
    List<String> documents = new ArrayList<>(edgeCases());
    Random random = new Random(8785);
    for (int i = 0; i < 2_000; i++) {
      documents.add("{\"k\":" + randomValue(random, 0) + "}");
    }
    JsonCanonicalizer canonicalizer = JsonCanonicalizer.withMaxDepth(64);
    int accepted = 0;
    for (String document : documents) {
      byte[] bytes = document.getBytes(StandardCharsets.UTF_8);
      try {
        canonicalizer.canonicalize(bytes);
      } catch (MalformedJsonException e) {
        continue;
      }
      accepted++;
      try {
        shopConverter.read(ResolvableType.forClass(K.class), new MockHttpInputMessage(bytes), null);
      } catch (InvalidRequestException e) {
        assertThat(e.problem())
            .as("problem for a document Once accepts: %.200s", document)
            .isEqualTo(ShopProblem.VALIDATION_FAILED);
      }
    }
    assertThat(accepted).isGreaterThan(documents.size() / 2);
  }

  @Test
  void aClientThatGoesAwayMidBodyIsABadRequest() {
    InputStream half =
        new InputStream() {
          private int sent;

          @Override
          public int read() throws IOException {
            if (sent++ < 5) {
              return '{';
            }
            throw new ClientAbortException(new IOException("Connection reset by peer"));
          }
        };
    assertThatThrownBy(
            () ->
                converter.read(
                    ResolvableType.forClass(Any.class), new MockHttpInputMessage(half), null))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> {
              assertThat(e.problem()).isEqualTo(ShopProblem.BAD_REQUEST);
              assertThat(e.getCause()).isInstanceOf(ClientAbortException.class);
            });
  }

  private static List<String> edgeCases() {
    return List.of(
        "{\"" + "n".repeat(50_001) + "\":1}",
        "{\"x\":" + "1".repeat(309) + "}",
        "{\"x\":-" + "1".repeat(309) + "}",
        "{\"x\":1" + "0".repeat(400) + "}",
        "{\"x\":0." + "0".repeat(5_000) + "1}",
        "{\"x\":1." + "5".repeat(5_000) + "e-300}",
        "{\"x\":1e-99999999999}",
        "{\"x\":0e99999999999}",
        "{\"x\":-0}",
        "{\"x\":-0.0e+0}",
        "{\"x\":1E400}",
        "{\"x\":4.9e-324}",
        "{\"x\":1.7976931348623157e308}",
        "{\"x\":\"\\u0000\\ud83d\\ude00\\/\"}",
        "{\"x\":\"\\ud800\"}",
        "{\"\\u0000\":1,\"\":2}",
        "{\"a\":1,\"\\u0061\":2}",
        "{\"x\":\"\u007f\u0080\u07ff\u0800\uffff\ud83d\ude00\"}",
        "\ufeff{\"x\":1}",
        " \t\r\n{\"x\" : [ 1 , 2 ] }\n",
        "[]",
        "\"text\"",
        "123",
        "{\"x\":" + "[".repeat(63) + "]".repeat(63) + "}",
        "{\"x\":" + "[".repeat(64) + "]".repeat(64) + "}");
  }

  private static String randomValue(Random random, int depth) {
    int kind = random.nextInt(depth > 6 ? 4 : 6);
    return switch (kind) {
      case 0 -> randomNumber(random);
      case 1 -> "\"" + randomText(random) + "\"";
      case 2 -> List.of("true", "false", "null").get(random.nextInt(3));
      case 3 -> "\"" + "v".repeat(random.nextInt(3) * 40_000) + "\"";
      case 4 -> {
        StringBuilder array = new StringBuilder("[");
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          array.append(i == 0 ? "" : ",").append(randomValue(random, depth + 1));
        }
        yield array.append(']').toString();
      }
      default -> {
        StringBuilder object = new StringBuilder("{");
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          String name = random.nextInt(10) == 0 ? "n".repeat(55_000) + i : randomText(random) + i;
          object.append(i == 0 ? "" : ",").append('"').append(name).append("\":");
          object.append(randomValue(random, depth + 1));
        }
        yield object.append('}').toString();
      }
    };
  }

  private static String randomNumber(Random random) {
    StringBuilder number = new StringBuilder();
    if (random.nextBoolean()) {
      number.append('-');
    }
    number.append(random.nextInt(10) == 0 ? "0" : 1 + random.nextInt(9) + digits(random, 400));
    if (random.nextBoolean()) {
      number.append('.').append(digits(random, 3_000)).append(random.nextInt(10));
    }
    if (random.nextBoolean()) {
      number.append(random.nextBoolean() ? 'e' : 'E');
      number.append(List.of("", "+", "-").get(random.nextInt(3)));
      number.append(random.nextInt(400));
    }
    return number.toString();
  }

  private static String digits(Random random, int max) {
    int n = random.nextInt(4) == 0 ? random.nextInt(max) : random.nextInt(5);
    StringBuilder digits = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      digits.append((char) ('0' + random.nextInt(10)));
    }
    return digits.toString();
  }

  private static String randomText(Random random) {
    String[] pieces = {
      "a", "Z", " ", "\\n", "\\\"", "\\u00e9", "é", "€", "😀", "\\ud83d\\ude00", "\\/"
    };
    StringBuilder text = new StringBuilder();
    int n = random.nextInt(6);
    for (int i = 0; i < n; i++) {
      text.append(pieces[random.nextInt(pieces.length)]);
    }
    return text.toString();
  }

  private void assertRefused(String body, ShopProblem problem) {
    assertThatThrownBy(() -> read(converter, Any.class, body))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.problem()).isEqualTo(problem));
  }

  private void assertRefusedField(String body, ShopProblem problem, String field) {
    assertRefusedField(body, Any.class, problem, field);
  }

  private void assertRefusedField(String body, Class<?> type, ShopProblem problem, String field) {
    assertThatThrownBy(() -> read(converter, type, body))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> {
              assertThat(e.problem()).isEqualTo(problem);
              assertThat(e.getBody().getProperties()).containsEntry("field", field);
            });
  }

  private JsonNode tree(String body) {
    return (JsonNode) read(shopConverter, JsonNode.class, body);
  }

  private static Object read(RequestBodyConverter converter, Class<?> type, String body) {
    return converter.read(
        ResolvableType.forClass(type),
        new MockHttpInputMessage(body.getBytes(StandardCharsets.UTF_8)),
        null);
  }

  private static RequestBodyConverter converter(DataSize maxBodySize, int maxDepth) {
    OnceProperties once =
        new Binder(
                new MapConfigurationPropertySource(
                    Map.of(
                        "once.idempotency.http.max-body-size", maxBodySize.toString(),
                        "once.idempotency.http.max-json-depth", String.valueOf(maxDepth))))
            .bindOrCreate("once", OnceProperties.class);
    // The shop's mapper: Once's limits, then the strict reading.
    JsonMapper.Builder json = JsonMapper.builder(JsonConfiguration.limits(once));
    new JsonConfiguration().strictReading().customize(json);
    return new RequestBodyConverter(json.build(), once, VALIDATOR);
  }
}
