package dev.once.verify.load;

/** One unit of load (an HTTP exchange, a database transaction), run repeatedly by one thread. */
public interface Operation extends AutoCloseable {

  /**
   * Runs the operation once.
   *
   * @param seq this thread's sequence number, from 0
   * @return null if the outcome was the expected one, else a short description of what came instead
   *     (for example the status and body of an unexpected answer)
   * @throws Exception if the operation could not be carried out (a broken connection, a database
   *     error); counted as an error
   */
  String run(long seq) throws Exception;

  @Override
  default void close() throws Exception {}

  /** Makes the operation of worker {@code index}; called on that worker's thread. */
  @FunctionalInterface
  interface Factory {
    Operation create(int index) throws Exception;
  }
}
