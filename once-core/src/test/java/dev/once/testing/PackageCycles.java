package dev.once.testing;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.once.testing.cycle.Parent;
import dev.once.testing.cycle.child.Child;
import java.net.URISyntaxException;
import java.nio.file.Path;

/**
 * The rule that no package of a module uses, directly or through others, a package that uses it
 * back, and the classes it is checked on. Every package is a slice of its own, named by its full
 * name, so a parent and its subpackage ({@code dev.once.spring} and {@code dev.once.spring.inbox})
 * are two slices and a cycle between them counts. Each module's {@code PackageCyclesTest} checks
 * its own main classes with it, and shows once with {@link #twoPackagesInACycle} that it refuses a
 * cycle.
 */
public final class PackageCycles {
  /** No cycle between packages. */
  public static final ArchRule NO_PACKAGE_CYCLES =
      slices().matching("(**)").namingSlices("$1").should().beFreeOfCycles();

  private PackageCycles() {}

  /**
   * The main classes of the module that holds {@code member}: only its own output directory, never
   * its test classes, jars or the other modules' directories on the test classpath (which, in a
   * reactor build, are directories too).
   */
  public static JavaClasses mainClassesOf(Class<?> member) {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPath(home(member));
    if (!classes.contain(member)) {
      throw new IllegalStateException(
          member.getName() + " is not a main class in a directory: " + home(member));
    }
    return classes;
  }

  /**
   * {@link Parent} and {@link Child}, in a package and its subpackage that use each other: the
   * cycle that a rule with one slice per top-level package would miss.
   */
  public static JavaClasses twoPackagesInACycle() {
    return new ClassFileImporter().importClasses(Parent.class, Child.class);
  }

  private static Path home(Class<?> member) {
    try {
      return Path.of(member.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
