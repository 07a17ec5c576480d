package dev.once.verify.report;

import dev.once.verify.load.LoadResult;
import dev.once.verify.stats.Goal;
import java.util.Locale;

/**
 * chart.svg: horizontal bars of requests per second per scenario, then the orders'
 * place-to-reserved p50 and p99 if that scenario ran, then each goal's measured value as a bar with
 * its goal as a vertical mark (green if met, red if missed, grey if not measured).
 */
public final class SvgChart {
  private static final int WIDTH = 900;
  private static final int LABEL = 330;
  private static final int BAR_MAX = 440;
  private static final int ROW = 26;

  private SvgChart() {}

  public static String write(BenchReport report) {
    int rows = report.results().size() + report.goals().size() + report.orders().size();
    int height = 90 + (report.orders().isEmpty() ? 0 : 32) + rows * ROW + 40;
    StringBuilder b = new StringBuilder();
    b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        .append(WIDTH)
        .append("\" height=\"")
        .append(height)
        .append("\" viewBox=\"0 0 ")
        .append(WIDTH)
        .append(' ')
        .append(height)
        .append("\" font-family=\"sans-serif\" font-size=\"12\">\n")
        .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    int y = 24;
    text(b, 10, y, "bold", "Requests per second");
    y += 12;
    double max = 1;
    for (LoadResult r : report.results()) {
      max = Math.max(max, r.perSecond());
    }
    for (LoadResult r : report.results()) {
      int w = (int) Math.round(BAR_MAX * r.perSecond() / max);
      text(b, 10, y + 16, null, r.title());
      rect(b, LABEL, y + 4, w, ROW - 8, r.clean() ? "#4a7bd0" : "#d04a4a");
      text(b, LABEL + w + 6, y + 16, null, Format.perSecond(r.perSecond()) + "/s");
      y += ROW;
    }
    if (!report.orders().isEmpty()) {
      y += 20;
      text(b, 10, y, "bold", "Orders: place to reserved (dark: p50, light: p99)");
      y += 12;
      int span = BAR_MAX - 140; // room for the label
      double maxNanos = 1;
      for (OrdersResult o : report.orders()) {
        maxNanos = Math.max(maxNanos, o.p99Nanos());
      }
      for (OrdersResult o : report.orders()) {
        text(b, 10, y + 16, null, o.title());
        String label = "n/a";
        if (o.p50Nanos() >= 0) {
          String dark = o.clean() ? "#4a7bd0" : "#d04a4a";
          String light = o.clean() ? "#a9c1ea" : "#eaa9a9";
          rect(b, LABEL, y + 4, (int) Math.round(span * o.p99Nanos() / maxNanos), ROW - 8, light);
          rect(b, LABEL, y + 4, (int) Math.round(span * o.p50Nanos() / maxNanos), ROW - 8, dark);
          label = "p50 " + Format.millis(o.p50Nanos()) + ", p99 " + Format.millis(o.p99Nanos());
        }
        int w = o.p99Nanos() < 0 ? 0 : (int) Math.round(span * o.p99Nanos() / maxNanos);
        text(b, LABEL + w + 6, y + 16, null, label);
        y += ROW;
      }
    }
    y += 20;
    text(b, 10, y, "bold", "Goals (bar: measured; mark: goal)");
    y += 12;
    for (Goal g : report.goals()) {
      double scale = Math.max(1.2 * g.goal(), Double.isNaN(g.value()) ? 0 : g.value() * 1.05);
      String color =
          g.verdict() == Goal.Verdict.PASS
              ? "#3a9a50"
              : g.verdict() == Goal.Verdict.MISS ? "#d04a4a" : "#aaaaaa";
      int w = Double.isNaN(g.value()) ? 0 : (int) Math.round(BAR_MAX * g.value() / scale);
      int mark = LABEL + (int) Math.round(BAR_MAX * g.goal() / scale);
      text(b, 10, y + 16, null, g.name());
      rect(b, LABEL, y + 4, w, ROW - 8, color);
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\" stroke-width=\"2\"/>%n",
              mark,
              y + 1,
              mark,
              y + ROW - 1));
      text(
          b,
          LABEL + Math.max(w, mark - LABEL) + 6,
          y + 16,
          null,
          g.valueText() + " (goal " + g.goalText() + ")");
      y += ROW;
    }
    return b.append("</svg>\n").toString();
  }

  private static void rect(StringBuilder b, int x, int y, int w, int h, String fill) {
    b.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n",
            x,
            y,
            Math.max(w, 0),
            h,
            fill));
  }

  private static void text(StringBuilder b, int x, int y, String weight, String content) {
    b.append("<text x=\"").append(x).append("\" y=\"").append(y).append('"');
    if (weight != null) {
      b.append(" font-weight=\"").append(weight).append('"');
    }
    b.append('>').append(escape(content)).append("</text>\n");
  }

  /** Text content escaped for XML. */
  static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<':
          b.append("&lt;");
          break;
        case '>':
          b.append("&gt;");
          break;
        case '&':
          b.append("&amp;");
          break;
        case '"':
          b.append("&quot;");
          break;
        default:
          b.append(c < 0x20 ? ' ' : c);
      }
    }
    return b.toString();
  }
}
