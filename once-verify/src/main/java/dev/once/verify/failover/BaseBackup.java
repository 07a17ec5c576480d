package dev.once.verify.failover;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A base backup of a running primary into an empty data directory, without {@code pg_basebackup}
 * (the embedded binaries hold only {@code initdb}, {@code pg_ctl} and {@code postgres}):
 * PostgreSQL's low-level API, as its manual describes it. A physical slot made first keeps every
 * WAL segment from before the backup's checkpoint; {@code pg_backup_start} (a fast checkpoint) in
 * one session; a copy of the files, which may change meanwhile (the WAL replayed from that
 * checkpoint mends them, {@code full_page_writes} being on); {@code pg_backup_stop} in the same
 * session, whose label becomes {@code backup_label}. The standby then streams the WAL it needs
 * through the slot.
 */
final class BaseBackup {
  /** Directories copied empty, and files never copied, as {@code pg_basebackup} leaves them. */
  private static final Set<String> EMPTIED =
      Set.of(
          "pg_wal",
          "pg_replslot",
          "pg_dynshmem",
          "pg_notify",
          "pg_serial",
          "pg_snapshots",
          "pg_stat_tmp",
          "pg_subtrans");

  private static final Set<String> SKIPPED =
      Set.of(
          "postmaster.pid",
          "postmaster.opts",
          "pg_internal.init",
          "backup_label",
          "tablespace_map",
          "standby.signal",
          "recovery.signal",
          "postgres.log",
          "pg_ctl.log",
          "epg-lock");

  private BaseBackup() {}

  /** Copies {@code primary} into {@code standby}'s (empty) data directory. */
  static void take(Node primary, Node standby) throws IOException, SQLException {
    try (Connection c = primary.connect("postgres");
        Statement s = c.createStatement()) {
      s.execute(
          "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
              + " WHERE slot_name = '"
              + Node.SLOT
              + "'");
      s.execute("SELECT pg_create_physical_replication_slot('" + Node.SLOT + "', true)");
      s.execute("SELECT pg_backup_start('once-verify', true)");
      copy(primary.data, standby.data);
      try (ResultSet rs = s.executeQuery("SELECT labelfile FROM pg_backup_stop(false)")) {
        rs.next();
        Files.writeString(
            standby.data.resolve("backup_label"), rs.getString(1), StandardCharsets.UTF_8);
      }
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    List<Path> paths;
    try (Stream<Path> tree = Files.walk(from)) {
      paths = tree.filter(p -> !p.equals(from)).toList();
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause(); // a file gone while listed: try again
    }
    for (Path p : paths) {
      Path relative = from.relativize(p);
      if (SKIPPED.contains(p.getFileName().toString()) || insideEmptied(relative)) {
        continue;
      }
      Path target = to.resolve(relative.toString());
      try {
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      } catch (NoSuchFileException e) {
        // dropped while copying (a temporary file, a dropped relation): the WAL replays its end
      }
    }
    Files.createDirectories(to.resolve("pg_wal/archive_status"));
  }

  /**
   * Whether {@code relative} lies inside one of {@link #EMPTIED} (the directory itself is kept).
   */
  private static boolean insideEmptied(Path relative) {
    return relative.getNameCount() > 1 && EMPTIED.contains(relative.getName(0).toString());
  }
}
