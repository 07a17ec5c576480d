package dev.once.verify;

import dev.once.testing.PackageCycles;

/**
 * No package of once-verify uses, directly or through others, a package that uses it back. The root
 * package {@code dev.once.verify} is a slice like every other: it holds only {@link Main}, whose
 * arrows go to every subcommand's package; what the subcommands share (flags, usage errors, secret
 * files) is in {@code dev.once.verify.cli}, which uses none of them.
 */
class PackageCyclesTest extends PackageCycles {
  PackageCyclesTest() {
    super(Main.class);
  }
}
