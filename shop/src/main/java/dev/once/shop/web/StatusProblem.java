package dev.once.shop.web;

/**
 * The problem for a bare HTTP status that no condition of the shop explains (Spring MVC's own
 * refusals, the container's error path, Tomcat's own answers): the shop's slug where it has one for
 * that status, {@code internal-error} for any other 5xx, {@code http-<status>} for any other 4xx,
 * and a generic one-sentence detail that names nothing internal. One place, so every error path
 * answers a status the same way.
 *
 * @param status the HTTP status
 * @param slug the last segment of the problem {@code type}
 * @param title the problem title
 * @param detail a generic sentence for that status
 */
public record StatusProblem(int status, String slug, String title, String detail) {

  /** The problem for {@code status}. */
  public static StatusProblem of(int status) {
    ShopProblem known =
        ShopProblem.forStatus(status).orElse(status >= 500 ? ShopProblem.INTERNAL_ERROR : null);
    String detail = detail(status);
    return known != null
        ? new StatusProblem(status, known.slug(), known.title(), detail)
        : new StatusProblem(status, "http-" + status, "HTTP " + status, detail);
  }

  private static String detail(int status) {
    return switch (status) {
      case 400 -> "The request is not valid.";
      case 404 -> "No resource exists at this path.";
      case 405 -> "This path does not support the request's HTTP method.";
      case 406 -> "The requested media type cannot be produced; accept application/json.";
      case 413 -> "The request body is too large.";
      case 415 -> "Send the request body as application/json.";
      case 431 -> "The request's header fields are too large.";
      case 503 -> "The service is briefly unavailable; retry the request.";
      default ->
          status >= 500
              ? "The request could not be completed because of an internal error."
              : "The request cannot be processed.";
    };
  }
}
