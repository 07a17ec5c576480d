package dev.once.shop.web;

import dev.once.failures.TransientFailures;
import dev.once.shop.problems.ProblemResponses;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * Tomcat's error page, for the requests that Tomcat refuses itself before the shop sees them: a
 * path with {@code %00}, an encoded {@code /} or {@code \}, {@code ..} above the root, bytes that
 * are not UTF-8, a request line or header over the size limit. Instead of Tomcat's HTML page the
 * answer is the same {@code application/problem+json} as every other error of the shop, with a
 * generic detail per status: never Tomcat's message or an exception, which can quote the request or
 * name internals. A 500 whose exception is a transient database failure ({@link TransientFailures})
 * is answered 503 {@code service-unavailable} with {@code Retry-After}, as everywhere else.
 * Installed on the host by {@link TomcatErrorPageConfiguration}. Thread-safe.
 */
public class ProblemErrorReportValve extends ErrorReportValve {
  private static final Logger log = LoggerFactory.getLogger(ProblemErrorReportValve.class);

  private final ProblemResponses problems;

  public ProblemErrorReportValve(ProblemResponses problems) {
    this.problems = problems;
    setShowReport(false);
    setShowServerInfo(false);
  }

  @Override
  protected void report(Request request, Response response, Throwable throwable) {
    int status = response.getStatus();
    if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
      return;
    }
    AtomicBoolean ioAllowed = new AtomicBoolean(true);
    response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
    if (!ioAllowed.get()) {
      return;
    }
    if (throwable != null) {
      log.debug("Tomcat answered {} itself: {}", status, throwable.toString());
      status = answered(status, throwable);
      response.setStatus(status);
    }
    try {
      if (status == 503) {
        response.setHeader(HttpHeaders.RETRY_AFTER, ProblemResponses.RETRY_AFTER_SECONDS);
      }
      response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
      PrintWriter writer = response.getReporter();
      if (writer != null) {
        writer.write(body(status));
        response.finishResponse();
      }
    } catch (Exception e) {
      // The client is gone or the response already broke: nothing more to say to anyone.
      log.debug("Could not write Tomcat's error answer: {}", e.toString());
    }
  }

  /**
   * The status to answer for Tomcat's {@code status} and the exception behind it: a 500 caused by a
   * transient database failure ({@link TransientFailures}) is a 503, as everywhere else.
   */
  static int answered(int status, Throwable throwable) {
    return status == 500 && TransientFailures.isTransient(throwable) ? 503 : status;
  }

  /** The problem for {@code status}, in ASCII so that no character encoding is needed. */
  String body(int status) {
    return ProblemResponses.json(problems.forStatus(status));
  }
}
