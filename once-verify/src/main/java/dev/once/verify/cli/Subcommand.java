package dev.once.verify.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What every subcommand's picocli {@code @Command} has: {@code -h}/{@code --help}, the usage
 * settings that {@link Cli#configure} gives it (options in the order declared, an abbreviated
 * synopsis, 100 columns), its options {@code O} made from its flags and then run, and the flags it
 * was given, for its report.
 */
public abstract class Subcommand<O> implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin Cli.Help help;

  /** The options these flags give, or a usage error naming the flag and its value. */
  public abstract O options() throws UsageException;

  /** Runs the subcommand with {@code options}; its exit status. */
  protected abstract int run(O options) throws Exception;

  /** The options, then the run: what picocli calls once the flags are parsed. */
  @Override
  public final Integer call() throws Exception {
    return run(options());
  }

  /** The flags given to this subcommand, its name left out; none when built without picocli. */
  protected List<String> flags() {
    return spec == null ? List.of() : Cli.flags(spec);
  }
}
