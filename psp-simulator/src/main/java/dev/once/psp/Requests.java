package dev.once.psp;

import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/** The two request bodies, parsed and validated; their {@code equals} is the replay comparison. */
final class Requests {
  private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
  private static final int MAX_REFERENCE = 100;

  private Requests() {}

  record ChargeRequest(String reference, Amount amount, String currency) {}

  record RefundRequest(String reference, String charge, Amount amount, String currency) {}

  static ChargeRequest charge(byte[] body) {
    JsonNode json = Json.object(body);
    Json.onlyMembers(json, Set.of("reference", "amount", "currency"));
    return new ChargeRequest(
        reference(json, "reference"),
        Amount.parse("amount", Json.string(json, "amount")),
        currency(json));
  }

  static RefundRequest refund(byte[] body) {
    JsonNode json = Json.object(body);
    Json.onlyMembers(json, Set.of("reference", "charge", "amount", "currency"));
    return new RefundRequest(
        reference(json, "reference"),
        reference(json, "charge"),
        Amount.parse("amount", Json.string(json, "amount")),
        currency(json));
  }

  private static String reference(JsonNode json, String field) {
    String value = Json.string(json, field);
    int length = value.codePointCount(0, value.length());
    if (length < 1 || length > MAX_REFERENCE) {
      throw Problem.invalidRequest(
          field, field + " must be 1 to " + MAX_REFERENCE + " characters long.");
    }
    if (value.codePoints().anyMatch(Character::isISOControl)) {
      throw Problem.invalidRequest(field, field + " must not contain control characters.");
    }
    return value;
  }

  private static String currency(JsonNode json) {
    String value = Json.string(json, "currency");
    if (!CURRENCY.matcher(value).matches()) {
      throw Problem.invalidRequest(
          "currency", "currency must be three upper-case letters (ISO 4217), such as \"EUR\".");
    }
    return value;
  }
}
