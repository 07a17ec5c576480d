package dev.once.shop.web;

import dev.once.failures.TransientFailures;
import dev.once.outbox.OutboxOverloadedException;
import dev.once.shop.persistence.DatabaseErrors;
import dev.once.shop.problems.DatabaseUnavailable;
import dev.once.shop.problems.InvalidRequestException;
import dev.once.shop.problems.ProblemResponses;
import dev.once.shop.problems.ShopException;
import dev.once.shop.problems.ShopProblem;
import jakarta.validation.ConstraintViolation;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
 * their slug and detail, load shedding's refusal as a 503 {@code outbox-overloaded} with the
 * suggested {@code Retry-After}, a broken constraint of a request record as a 422 naming the field,
 * Spring MVC's (unknown route, wrong method, wrong media type, ...) with a generic slug per status,
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

  /** The detail of {@code outbox-overloaded}: one sentence, nothing internal. */
  static final String OUTBOX_OVERLOADED =
      "The shop has more work queued than it can do in time and took nothing of this request;"
          + " send it again, with the same Idempotency-Key, after Retry-After.";

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

  /**
   * Load shedding refused the request: the relay is too far behind. Nothing of it was committed;
   * the client sends it again, with the same key, after the suggested delay. The shedding thread
   * logs when shedding starts and ends; each refusal only at DEBUG.
   */
  @ExceptionHandler(OutboxOverloadedException.class)
  ResponseEntity<Object> outboxOverloaded(OutboxOverloadedException e) {
    log.debug("Request refused: outbox-overloaded ({})", e.getMessage());
    HttpHeaders headers = new HttpHeaders();
    headers.set(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds()));
    return problems.answer(ShopProblem.OUTBOX_OVERLOADED, OUTBOX_OVERLOADED, headers);
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
    Type body = ex.getParameter().getGenericParameterType();
    FieldError first =
        ex.getFieldErrors().stream()
            .min(
                Comparator.comparing(
                    (FieldError error) -> rank(body, error.getField()),
                    ProblemExceptionHandler::compare))
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

  /**
   * Where a field such as {@code items[2].sku} stands in the order of the request record: per
   * segment, the component's position in its record, or the element's index in its list; so that of
   * several broken constraints, nested ones included, the first in the record's order is named,
   * whatever order Bean Validation reports them in. A segment the type does not explain ranks last.
   */
  private static List<Integer> rank(Type type, String field) {
    List<Integer> rank = new ArrayList<>();
    for (String segment : field.replace("[", ".[").split("\\.", -1)) {
      Class<?> raw = rawClass(type);
      if (segment.isEmpty() && rank.isEmpty()) {
        continue; // a path that starts with an index
      }
      if (segment.startsWith("[")
          && segment.endsWith("]")
          && type instanceof ParameterizedType list
          && List.class.isAssignableFrom(raw)) {
        try {
          rank.add(Integer.parseInt(segment.substring(1, segment.length() - 1)));
        } catch (NumberFormatException e) {
          rank.add(Integer.MAX_VALUE);
          return rank;
        }
        type = list.getActualTypeArguments()[0];
        continue;
      }
      RecordComponent[] components = raw.isRecord() ? raw.getRecordComponents() : null;
      int position = -1;
      for (int i = 0; components != null && i < components.length; i++) {
        if (components[i].getName().equals(segment)) {
          position = i;
        }
      }
      if (position < 0) {
        rank.add(Integer.MAX_VALUE);
        return rank;
      }
      rank.add(position);
      type = components[position].getGenericType();
    }
    return rank;
  }

  private static Class<?> rawClass(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) {
      return c;
    }
    return Object.class;
  }

  /** Lexicographic order of ranks; a rank before the longer ranks it begins. */
  private static int compare(List<Integer> a, List<Integer> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = Integer.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
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
