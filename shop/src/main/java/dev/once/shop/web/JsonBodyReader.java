package dev.once.shop.web;

import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a request body as a JSON object tree, with the same limits as Once's filter (body size and
 * nesting depth, from the same {@code once.idempotency.http.*} properties): the filter enforces
 * them on idempotent {@code /v1} POSTs before a key is claimed, this reader on every other body
 * (the admin API). Duplicate member names and trailing content are malformed JSON. Fields are
 * validated by the caller through {@link JsonBody}, never bound to types, so that a JSON number
 * where a money string belongs is refused rather than coerced. Thread-safe.
 */
@Component
public class JsonBodyReader {
  private final int maxBytes;
  private final int maxDepth;
  private final JsonMapper mapper;

  public JsonBodyReader(
      @Value("${once.idempotency.http.max-body-size:1MB}") DataSize maxBodySize,
      @Value("${once.idempotency.http.max-json-depth:64}") int maxDepth) {
    if (maxBodySize.toBytes() < 1 || maxBodySize.toBytes() > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "once.idempotency.http.max-body-size must be 1B to 2GB, but was " + maxBodySize);
    }
    if (maxDepth < 1) {
      throw new IllegalArgumentException(
          "once.idempotency.http.max-json-depth must be at least 1, but was " + maxDepth);
    }
    this.maxBytes = (int) maxBodySize.toBytes();
    this.maxDepth = maxDepth;
    // Every document that Once's filter accepts (JsonCanonicalizer: no limit on the length of
    // names, numbers or strings; the same body size and depth limits) must be accepted here too:
    // otherwise a body the filter passed would be refused by the handler with a 400 that is then
    // stored under the key. So Jackson's own length limits are raised to the body limit (nothing
    // longer can arrive), its depth limit sits one above ours so that our count, with its own
    // answer, trips first, and property names are not canonicalized into a symbol table, whose
    // hash-collision guard could refuse a document that the filter accepts.
    JsonFactory factory =
        JsonFactory.builder()
            .streamReadConstraints(
                StreamReadConstraints.builder()
                    .maxNestingDepth(maxDepth + 1)
                    .maxNameLength(maxBytes)
                    .maxNumberLength(maxBytes)
                    .maxStringLength(maxBytes)
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES)
            .build();
    this.mapper = JsonMapper.builder(factory).build();
  }

  /**
   * The request's body as a JSON object.
   *
   * @throws InvalidRequestException {@code payload-too-large}, {@code malformed-json}, {@code
   *     json-too-deep}, {@code validation-failed} if the document is not an object, or {@code
   *     bad-request} if the body could not be read (the client went away)
   */
  public JsonBody read(HttpServletRequest request) {
    byte[] bytes = readLimited(request);
    if (bytes.length == 0) {
      throw new InvalidRequestException(
          ShopProblem.MALFORMED_JSON, "The request body is empty; send a JSON object.");
    }
    JsonNode root;
    try {
      checkStructure(bytes);
      root = mapper.readTree(bytes);
    } catch (JacksonException e) {
      throw new InvalidRequestException(
          ShopProblem.MALFORMED_JSON, "The request body is not valid JSON.");
    }
    if (!(root instanceof ObjectNode object)) {
      throw new InvalidRequestException(
          ShopProblem.VALIDATION_FAILED, "The request body must be a JSON object.");
    }
    return new JsonBody(object);
  }

  private byte[] readLimited(HttpServletRequest request) {
    if (request.getContentLengthLong() > maxBytes) {
      throw tooLarge();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      InputStream in = request.getInputStream();
      int n;
      while ((n = in.read(buffer)) != -1) {
        if (out.size() + n > maxBytes) {
          throw tooLarge();
        }
        out.write(buffer, 0, n);
      }
    } catch (IOException e) {
      // The client went away mid-body (Tomcat's ClientAbortException, an EOF): nobody is left to
      // read the answer, and nothing on the server went wrong, so it is an ordinary refusal.
      throw new InvalidRequestException(
          ShopProblem.BAD_REQUEST, "The request body could not be read.", e);
    }
    return out.toByteArray();
  }

  /** One streaming pass: nesting depth and nothing after the first value. */
  private void checkStructure(byte[] bytes) {
    try (JsonParser parser = mapper.createParser(bytes)) {
      int depth = 0;
      JsonToken token = parser.nextToken();
      if (token == null) {
        throw new InvalidRequestException(
            ShopProblem.MALFORMED_JSON, "The request body is empty; send a JSON object.");
      }
      while (token != null) {
        if (token.isStructStart() && ++depth > maxDepth) {
          throw new InvalidRequestException(
              ShopProblem.JSON_TOO_DEEP,
              "The JSON body is nested deeper than " + maxDepth + " levels.");
        }
        if (token.isStructEnd()) {
          depth--;
        }
        if (depth == 0) {
          break;
        }
        token = parser.nextToken();
      }
      if (parser.nextToken() != null) {
        throw new InvalidRequestException(
            ShopProblem.MALFORMED_JSON, "The request body has content after the JSON value.");
      }
    }
  }

  private InvalidRequestException tooLarge() {
    return new InvalidRequestException(
        ShopProblem.PAYLOAD_TOO_LARGE, "The request body is larger than " + maxBytes + " bytes.");
  }
}
