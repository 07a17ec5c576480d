package dev.once.shop.web;

import dev.once.postgres.TransientFailures;
import dev.once.shop.persistence.DatabaseErrors;
import jakarta.validation.ConstraintViolation;
import java.lang.reflect.RecordComponent;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * Turns every exception a handler raises into an RFC 9457 problem: the shop's own conditions with
 * their slug and detail, a broken constraint of a request record as a 422 naming the field, Spring
 * MVC's (unknown route, wrong method, wrong media type, ...) with a generic slug per status,
 * recognised database conditions through {@link DatabaseErrors} (those a retry cures, whatever
 * exception carries them, through {@link DatabaseUnavailable}), and anything else into a 500 {@code
 * internal-error} whose detail says nothing about the cause; the cause is logged here instead.
 */
@RestControllerAdvice
public class ProblemExceptionHandler extends ResponseEntityExceptionHandler {
  private static final Logger log = LoggerFactory.getLogger(ProblemExceptionHandler.class);

  /** The detail of a query string that Tomcat could not decode. */
  private static final String UNDECODABLE_QUERY =
      "The query string is not valid: every %-escape must be two hexadecimal digits, and the"
          + " decoded bytes UTF-8.";

  private final ProblemResponses problems;
  private final DatabaseUnavailable databaseUnavailable;

  public ProblemExceptionHandler(
      ProblemResponses problems, DatabaseUnavailable databaseUnavailable) {
    this.problems = problems;
    this.databaseUnavailable = databaseUnavailable;
  }

  @ExceptionHandler(ShopException.class)
  ResponseEntity<Object> shopException(ShopException e) {
    log.debug("Request refused: {} ({})", e.problem().slug(), e.getBody().getDetail());
    return problems.answer(e);
  }

  @ExceptionHandler(DataAccessException.class)
  ResponseEntity<Object> databaseException(DataAccessException e) {
    return DatabaseErrors.classify(e)
        .map(
            problem -> {
              if (problem == ShopProblem.SERVICE_UNAVAILABLE) {
                return databaseUnavailable.answer(e);
              }
              log.warn("Database refused a request: {} (SQLSTATE {})", problem.slug(), state(e));
              return problems.answer(problem, detailOf(problem));
            })
        .orElseGet(() -> internalError(e));
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<Object> unexpected(Exception e) {
    if (causedBy(e, InvalidParameterException.class)) {
      // Tomcat decodes the query string when a handler or filter first asks for a parameter, and
      // refuses a bad %-escape or bytes that are not UTF-8 by throwing: the client's fault.
      log.debug("Request refused: invalid-parameter ({})", e.toString());
      return problems.answer(ShopProblem.INVALID_PARAMETER, UNDECODABLE_QUERY);
    }
    if (TransientFailures.isTransient(e)) {
      // Not only DataAccessException carries a database failure: Once's OutboxException wraps the
      // driver's SQLException itself, and a transaction that could not begin (no free connection)
      // is a TransactionException. The cause chain decides, whatever the wrapper.
      // Asked before the client-disconnect check: the driver's lost connection to the database
      // (an EOFException beneath a SQLException) looks like a client that went away to it.
      return databaseUnavailable.answer(e);
    }
    if (DisconnectedClientHelper.isClientDisconnectedException(e)) {
      // Nobody is left to read the answer, and nothing on the server went wrong.
      log.debug("Client went away: {}", e.toString());
      return problems.answer(ShopProblem.BAD_REQUEST, "The request could not be read.");
    }
    return internalError(e);
  }

  /** The answer for a failure raised outside Spring MVC (a filter's), as if a handler raised it. */
  ResponseEntity<Object> outsideSpringMvc(Throwable failure) {
    if (failure instanceof ShopException shop) {
      return shopException(shop);
    }
    if (failure instanceof DataAccessException data) {
      return databaseException(data);
    }
    return failure instanceof Exception e ? unexpected(e) : internalError(failure);
  }

  @Override
  protected ResponseEntity<Object> handleHttpMessageNotReadable(
      HttpMessageNotReadableException ex,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    // RequestBodyConverter answers every body it reads; Spring calls no converter for an empty one.
    return problems.answer(
        ShopProblem.MALFORMED_JSON, "The request body is empty; send a JSON object.");
  }

  /** The first broken constraint of a request record, in the order of its components. */
  @Override
  protected ResponseEntity<Object> handleMethodArgumentNotValid(
      MethodArgumentNotValidException ex,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    RecordComponent[] components = ex.getParameter().getParameterType().getRecordComponents();
    List<String> order =
        Stream.of(Objects.requireNonNullElse(components, new RecordComponent[0]))
            .map(RecordComponent::getName)
            .toList();
    FieldError first =
        ex.getFieldErrors().stream()
            .min(Comparator.comparingInt(error -> order.indexOf(error.getField())))
            .orElseThrow();
    String field = first.getField();
    return shopException(
        new InvalidRequestException(
            ShopProblem.of(first.unwrap(ConstraintViolation.class).getConstraintDescriptor()),
            field,
            "Field '" + field + "' " + first.getDefaultMessage() + "."));
  }

  /** Every Spring MVC exception ends here: rewrite its problem in the shop's terms. */
  @Override
  protected ResponseEntity<Object> createResponseEntity(
      Object body, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    return problems.answer(status.value(), headers);
  }

  private ResponseEntity<Object> internalError(Throwable e) {
    log.error("Unexpected failure while handling a request", e);
    return problems.answer(ShopProblem.INTERNAL_ERROR, detailOf(ShopProblem.INTERNAL_ERROR));
  }

  private static String state(DataAccessException e) {
    return DatabaseErrors.sqlState(e).orElse("none");
  }

  private static String detailOf(ShopProblem problem) {
    return switch (problem) {
      case AMOUNT_OUT_OF_RANGE -> "The resulting amount is larger than the shop supports.";
      case BAD_REQUEST -> "The request contains a value the shop cannot store.";
      case INSUFFICIENT_FUNDS -> "The account's balance is too low for this operation.";
      case REFUND_EXCEEDS_PAYMENT ->
          "The refunds of a payment may not add up to more than its amount.";
      default -> "The request could not be completed because of an internal error.";
    };
  }

  private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
