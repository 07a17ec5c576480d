package dev.once.verify.harness;

/**
 * What a command does when the JVM is stopped under it (Ctrl-C, SIGTERM): stop the processes and
 * servers it started, so that none outlives the run. Registered at {@link #on}, withdrawn at {@link
 * #close} (the run then stops them itself); a close while the JVM is already shutting down leaves
 * the hook to run. The one shutdown hook of every once-verify command.
 */
public final class ShutdownHook implements AutoCloseable {
  private final Thread thread;

  private ShutdownHook(Thread thread) {
    this.thread = thread;
  }

  /** Runs {@code action} on a thread named {@code name} if the JVM shuts down before a close. */
  public static ShutdownHook on(String name, Runnable action) {
    Thread thread = new Thread(action, name);
    Runtime.getRuntime().addShutdownHook(thread);
    return new ShutdownHook(thread);
  }

  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(thread);
    } catch (IllegalStateException e) {
      // Ctrl-C: the JVM is already shutting down and the hook is running or has run.
    }
  }
}
