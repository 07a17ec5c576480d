/**
 * What every subcommand's command line shares: picocli's settings, the {@code --help} mixin,
 * duration flags, usage errors ({@link dev.once.verify.cli.UsageException}: one line on stderr,
 * exit 2) and secrets read from files rather than from the command line. Uses no subcommand's
 * package.
 */
package dev.once.verify.cli;
