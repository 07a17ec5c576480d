package dev.once.shop.persistence;

import dev.once.failures.TransientFailures;
import dev.once.shop.problems.ShopProblem;
import java.sql.SQLException;
import java.util.Optional;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;
import org.springframework.dao.DataAccessException;

/**
 * Classifies database failures by SQLSTATE and, for constraint violations, by constraint name —
 * never by message text — into the problem a client should see. Which failures a retry may cure is
 * Once's {@link TransientFailures} alone, the one classification that every place answering a
 * request uses (no second list of Spring's exception types here: Spring's wrappers keep the
 * driver's exception as cause, and it decides). Anything not recognised is an internal error: it is
 * logged and answered 500 with a generic sentence.
 */
public final class DatabaseErrors {
  /** SQLSTATE raised by the trigger that keeps {@code operation} append-only. */
  public static final String APPEND_ONLY_VIOLATION = "LG001";

  private DatabaseErrors() {}

  /**
   * The problem for {@code e}, if it is one the client can act on: a transient condition (retry
   * with the same key; nothing was committed) or a rule that a constraint enforced as a backstop.
   */
  public static Optional<ShopProblem> classify(DataAccessException e) {
    String state = sqlState(e).orElse("");
    if (TransientFailures.isTransient(e)) {
      return Optional.of(ShopProblem.SERVICE_UNAVAILABLE);
    }
    return switch (state) {
      // numeric_value_out_of_range: a balance or sum beyond numeric(28, 4)
      case "22003" -> Optional.of(ShopProblem.AMOUNT_OUT_OF_RANGE);
      // Data exceptions that only a value from the request can cause: text the database cannot
      // store (character_not_in_repertoire, e.g. a NUL; untranslatable_character) or that does
      // not fit its column (string_data_right_truncation, string_data_length_mismatch). The
      // shop's other parameters are typed values it made itself, so any other 22xxx is a bug
      // and stays a 500.
      case "22021", "22P05", "22001", "22026" -> Optional.of(ShopProblem.BAD_REQUEST);
      // check_violation: the statements check these rules first; the constraints are backstops
      case "23514" ->
          switch (constraint(e).orElse("")) {
            case "account_balance_non_negative", "operation_balance_after_non_negative" ->
                Optional.of(ShopProblem.INSUFFICIENT_FUNDS);
            case "payment_refunded_within_amount" ->
                Optional.of(ShopProblem.REFUND_EXCEEDS_PAYMENT);
            default -> Optional.empty();
          };
      default -> Optional.empty();
    };
  }

  /** The SQLSTATE of the first {@link SQLException} in the cause chain. */
  public static Optional<String> sqlState(Throwable e) {
    return TransientFailures.sqlState(e);
  }

  /** The name of the violated constraint, as the server reported it. */
  public static Optional<String> constraint(Throwable e) {
    return TransientFailures.sqlException(e)
        .filter(PSQLException.class::isInstance)
        .map(s -> ((PSQLException) s).getServerErrorMessage())
        .map(ServerErrorMessage::getConstraint);
  }
}
