package dev.once.shop.web;

import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tomcat's error page, for the requests that Tomcat refuses itself before the shop sees them: a
 * path with {@code %00}, an encoded {@code /} or {@code \}, {@code ..} above the root, bytes that
 * are not UTF-8, a request line or header over the size limit. Instead of Tomcat's HTML page the
 * answer is the same {@code application/problem+json} as every other error of the shop, with a
 * generic detail per status: never Tomcat's message or an exception, which can quote the request or
 * name internals. Installed on the host by {@link TomcatErrorPageConfiguration}. Thread-safe.
 */
public class ProblemErrorReportValve extends ErrorReportValve {
  private static final Logger log = LoggerFactory.getLogger(ProblemErrorReportValve.class);

  /** The problem type base used when none is given (the shop's default). */
  static final String DEFAULT_TYPE_BASE = "https://once.dev/problems/";

  private final String typeBase;

  /** With the default type base; used only if Tomcat instantiates the valve by class name. */
  public ProblemErrorReportValve() {
    this(DEFAULT_TYPE_BASE);
  }

  /** With {@code typeBase}, the prefix of every problem {@code type} (shared with Once). */
  public ProblemErrorReportValve(String typeBase) {
    this.typeBase = typeBase;
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
    }
    try {
      response.setContentType(Problems.PROBLEM_JSON.toString());
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

  /** The problem for {@code status}, in ASCII so that no character encoding is needed. */
  String body(int status) {
    StatusProblem problem = StatusProblem.of(status);
    return "{\"type\":"
        + quote(typeBase + problem.slug())
        + ",\"title\":"
        + quote(problem.title())
        + ",\"status\":"
        + status
        + ",\"detail\":"
        + quote(problem.detail())
        + "}";
  }

  private static String quote(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || c > 0x7E) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
