package dev.once.embedded;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.commons.logging.Log;

/** A log that keeps every message with its level ("WARN: ..."), for tests to look at. */
public final class RecordingLog {

  private final List<String> lines = new CopyOnWriteArrayList<>();

  /** Every level enabled; {@code warn(message[, throwable])} adds {@code WARN: message[ (t)]}. */
  private final Log log =
      (Log)
          Proxy.newProxyInstance(
              Log.class.getClassLoader(),
              new Class<?>[] {Log.class},
              (proxy, method, arguments) -> {
                if (method.getName().startsWith("is")) {
                  return true;
                }
                if (method.getDeclaringClass() == Object.class) {
                  return method.getName().equals("toString") ? "RecordingLog" : null;
                }
                String level = method.getName().toUpperCase(Locale.ROOT);
                String cause = arguments.length > 1 ? " (" + arguments[1] + ")" : "";
                lines.add(level + ": " + arguments[0] + cause);
                return null;
              });

  /** The log to hand to the code under test. */
  public Log log() {
    return log;
  }

  /** Every line logged so far, each {@code LEVEL: message}. */
  public List<String> lines() {
    return List.copyOf(lines);
  }
}
