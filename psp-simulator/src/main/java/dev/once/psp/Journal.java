package dev.once.psp;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Logger;
import tools.jackson.databind.JsonNode;

/**
 * The simulator's write-ahead journal: an append-only file of one JSON object per line, one line
 * per record, each written with one {@code write} call before the request it records is answered.
 *
 * <p>Guarantee: a record whose request was answered is in the file once {@link #append} returns,
 * that is in the operating system, so it survives {@code kill -9} of the process; nothing is synced
 * to the disk, so a machine crash or power loss may lose the latest records. Appends are
 * serialized, and {@link #atomically} makes a decision, its record and its effect one step, so the
 * file's order is the order in which effects were applied.
 *
 * <p>At start, {@link #open} replays every complete line in order. A last line without its newline
 * is a record torn by a kill during its write (its request was never answered): it is ignored,
 * logged and truncated away. Any other line that cannot be read or replayed stops the start with a
 * {@link CorruptException} naming the file and the line.
 *
 * <p>Without a path ({@link #NONE}) nothing is written and {@link #atomically} takes no lock.
 */
final class Journal implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(Journal.class.getName());

  /** In memory only. */
  static final Journal NONE = new Journal(null);

  /** A complete line that cannot be read or replayed; the simulator does not start. */
  static final class CorruptException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    CorruptException(String message) {
      super(message);
    }
  }

  private final Path path;
  private OutputStream out;

  Journal(Path path) {
    this.path = path;
  }

  /**
   * Replays the file's complete lines, parsed, into {@code replay} (which throws {@link
   * RuntimeException} for a record it cannot apply), truncates a torn last line and opens the file
   * for appending; creates it if missing.
   *
   * @throws CorruptException if a complete line cannot be read or replayed (the file is unchanged)
   * @throws UncheckedIOException if the file cannot be read, truncated or opened
   */
  synchronized void open(Consumer<JsonNode> replay) {
    if (path == null) {
      return;
    }
    try {
      byte[] bytes = Files.exists(path) ? Files.readAllBytes(path) : new byte[0];
      int complete = 0;
      int records = 0;
      for (int i = 0; i < bytes.length; i++) {
        if (bytes[i] == '\n') {
          replay(bytes, complete, i, ++records, replay);
          complete = i + 1;
        }
      }
      if (complete < bytes.length) {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
          channel.truncate(complete);
        }
        LOG.warning(
            "Journal "
                + path
                + ": ignored and truncated a torn last record ("
                + (bytes.length - complete)
                + " bytes without a newline, from a kill during its write)");
      }
      out = new FileOutputStream(path.toFile(), true);
      LOG.info("Journal " + path + ": replayed " + records + " records, appending");
    } catch (IOException e) {
      throw new UncheckedIOException("journal " + path + ": " + e.getMessage(), e);
    }
  }

  private void replay(byte[] bytes, int from, int to, int line, Consumer<JsonNode> replay) {
    try {
      String text =
          StandardCharsets.UTF_8
              .newDecoder()
              .decode(ByteBuffer.wrap(bytes, from, to - from))
              .toString();
      replay.accept(Json.tree(text));
    } catch (CharacterCodingException e) {
      throw corrupt(line, "not UTF-8");
    } catch (RuntimeException e) {
      throw corrupt(line, e.getMessage());
    }
  }

  private CorruptException corrupt(int line, String reason) {
    return new CorruptException(
        "journal "
            + path
            + " line "
            + line
            + " is corrupt ("
            + reason
            + "); refusing to start rather than forget or invent what it recorded");
  }

  /**
   * Runs {@code step} (which decides an effect, {@link #append}s its record, then applies it) while
   * no other record is appended, so that the file's order is the order of the effects. Without a
   * journal, runs it without a lock.
   */
  <T> T atomically(Supplier<T> step) {
    if (path == null) {
      return step.get();
    }
    synchronized (this) {
      return step.get();
    }
  }

  /**
   * Writes {@code record} as one JSON line with one write call; nothing without a journal.
   *
   * @throws UncheckedIOException if it cannot be written (the caller then applies nothing)
   */
  void append(Object record) {
    if (path == null) {
      return;
    }
    byte[] json = Json.write(record);
    byte[] line = new byte[json.length + 1];
    System.arraycopy(json, 0, line, 0, json.length);
    line[json.length] = '\n';
    synchronized (this) {
      if (out == null) {
        throw new IllegalStateException("journal " + path + " is not open");
      }
      try {
        out.write(line);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot append to journal " + path, e);
      }
    }
  }

  @Override
  public synchronized void close() {
    if (out == null) {
      return;
    }
    try {
      out.close();
    } catch (IOException e) {
      LOG.warning("Journal " + path + ": cannot close: " + e.getMessage());
    }
    out = null;
  }
}
