package dev.once.embedded;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.commons.logging.Log;

/** A log that keeps every message with its level ("WARN: ..."), for tests to look at. */
public final class RecordingLog implements Log {

  private final List<String> lines = new CopyOnWriteArrayList<>();

  /** Every line logged so far, each {@code LEVEL: message}. */
  public List<String> lines() {
    return List.copyOf(lines);
  }

  private void add(String level, Object message, Throwable t) {
    lines.add(level + ": " + message + (t == null ? "" : " (" + t + ")"));
  }

  @Override
  public void debug(Object message) {
    add("DEBUG", message, null);
  }

  @Override
  public void debug(Object message, Throwable t) {
    add("DEBUG", message, t);
  }

  @Override
  public void error(Object message) {
    add("ERROR", message, null);
  }

  @Override
  public void error(Object message, Throwable t) {
    add("ERROR", message, t);
  }

  @Override
  public void fatal(Object message) {
    add("FATAL", message, null);
  }

  @Override
  public void fatal(Object message, Throwable t) {
    add("FATAL", message, t);
  }

  @Override
  public void info(Object message) {
    add("INFO", message, null);
  }

  @Override
  public void info(Object message, Throwable t) {
    add("INFO", message, t);
  }

  @Override
  public boolean isDebugEnabled() {
    return true;
  }

  @Override
  public boolean isErrorEnabled() {
    return true;
  }

  @Override
  public boolean isFatalEnabled() {
    return true;
  }

  @Override
  public boolean isInfoEnabled() {
    return true;
  }

  @Override
  public boolean isTraceEnabled() {
    return true;
  }

  @Override
  public boolean isWarnEnabled() {
    return true;
  }

  @Override
  public void trace(Object message) {
    add("TRACE", message, null);
  }

  @Override
  public void trace(Object message, Throwable t) {
    add("TRACE", message, t);
  }

  @Override
  public void warn(Object message) {
    add("WARN", message, null);
  }

  @Override
  public void warn(Object message, Throwable t) {
    add("WARN", message, t);
  }
}
