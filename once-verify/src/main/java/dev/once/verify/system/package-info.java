/**
 * What the operating system says about processes (Linux {@code /proc}): CPU time per process and
 * for the whole machine, resident memory, and the error for a child that exited while starting,
 * with its log's last lines. Unreadable values are reported as unknown, never guessed.
 */
package dev.once.verify.system;
