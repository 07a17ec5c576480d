package dev.once.testing;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.once.testing.cycle.Parent;
import dev.once.testing.cycle.child.Child;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * No package of a module uses, directly or through others, a package that uses it back. Every
 * package is a slice of its own, named by its full name, so a parent and its subpackage ({@code
 * dev.once.spring} and {@code dev.once.spring.inbox}) are two slices and a cycle between them
 * counts. Each module's {@code PackageCyclesTest} extends this class with one of its main classes:
 * it checks that module's own main classes with {@link #NO_PACKAGE_CYCLES}, and shows that the rule
 * refuses a cycle, between {@link Parent} and {@link Child}.
 */
public abstract class PackageCycles {
  /** No cycle between packages. */
  public static final ArchRule NO_PACKAGE_CYCLES =
      slices().matching("(**)").namingSlices("$1").should().beFreeOfCycles();

  private final Class<?> member;

  /** The test of the module that holds {@code member}, one of its main classes. */
  protected PackageCycles(Class<?> member) {
    this.member = member;
  }

  @Test
  public void theModuleHasNoPackageCycle() {
    NO_PACKAGE_CYCLES.check(mainClassesOf(member));
  }

  @Test
  public void theRuleRefusesACycle() {
    JavaClasses parentAndChild = new ClassFileImporter().importClasses(Parent.class, Child.class);

    assertThatThrownBy(() -> NO_PACKAGE_CYCLES.check(parentAndChild))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Cycle detected: dev.once.testing.cycle -> ")
        .hasMessageContaining("dev.once.testing.cycle.child -> ");
  }

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

  private static Path home(Class<?> member) {
    try {
      return Path.of(member.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
