package dev.once.outbox;

/**
 * What one run of the archive's housekeeping did ({@link OutboxStore#maintainArchive()}).
 *
 * @param made day partitions made (ahead of time, or for the days of rows still to be archived)
 * @param dropped day partitions dropped, past the retention
 */
public record ArchiveMaintenance(int made, int dropped) {}
