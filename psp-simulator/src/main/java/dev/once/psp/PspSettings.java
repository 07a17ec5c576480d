package dev.once.psp;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How to start a {@link PspSimulator}.
 *
 * @param host the address to bind, e.g. {@code 127.0.0.1} or {@code 0.0.0.0}
 * @param port the port to bind, 0..65535; 0 picks any free port ({@link PspSimulator#port()} tells
 *     which)
 * @param faults the faults in force at start; {@link PspSimulator#faults(Faults)} replaces them
 * @param seed the seed of the random draws that pick a fault per request: the same seed and the
 *     same requests in the same order give the same faults
 * @param journal the append-only file that makes the applied charges and refunds, their idempotency
 *     keys and the stats survive a restart (see {@link Journal}); {@code null} keeps everything in
 *     memory only
 */
public record PspSettings(String host, int port, Faults faults, long seed, Path journal) {

  /** Settings without a journal: everything in memory only. */
  public PspSettings(String host, int port, Faults faults, long seed) {
    this(host, port, faults, seed, null);
  }

  public PspSettings {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(faults, "faults");
    if (host.isBlank()) {
      throw new InvalidFieldException("host", "host must not be blank");
    }
    if (port < 0 || port > 65_535) {
      throw new InvalidFieldException("port", "port must be between 0 and 65535, was " + port);
    }
  }

  /** {@code 127.0.0.1}, any free port, {@link Faults#NONE}, seed 0, no journal. */
  public static PspSettings defaults() {
    return new PspSettings("127.0.0.1", 0, Faults.NONE, 0);
  }

  public PspSettings withHost(String host) {
    return new PspSettings(host, port, faults, seed, journal);
  }

  public PspSettings withPort(int port) {
    return new PspSettings(host, port, faults, seed, journal);
  }

  public PspSettings withFaults(Faults faults) {
    return new PspSettings(host, port, faults, seed, journal);
  }

  public PspSettings withSeed(long seed) {
    return new PspSettings(host, port, faults, seed, journal);
  }

  /** With the journal at {@code journal}, or none if null. */
  public PspSettings withJournal(Path journal) {
    return new PspSettings(host, port, faults, seed, journal);
  }
}
