package dev.once;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.once.postgres.OnceSchema;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * once-core stays plain Java: its classes may use the JDK's {@code java.*} packages, JDBC's {@code
 * javax.sql}, SLF4J and once-core itself, and nothing else. An allow-list, so that no library (and
 * no other part of the JDK, such as {@code javax.management}) can slip in unnoticed. The module's
 * resolved dependencies are held to the same list by the maven-enforcer-plugin in its pom.
 */
class CoreDependenciesTest {
  private static final ArchRule ONLY_JDK_JDBC_AND_SLF4J =
      classes()
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("java..", "javax.sql..", "org.slf4j..", "dev.once..");

  @Test
  void coreUsesOnlyTheJdkJdbcAndSlf4j() {
    JavaClasses core = coreMainClasses();
    assertThat(core.contain(OnceSchema.class)).isTrue();
    assertThat(core.stream().map(JavaClass::getPackageName))
        .as("only core's own classes: no test fixture, no class of once-embedded-postgres")
        .noneMatch(
            name -> name.startsWith("dev.once.embedded") || name.startsWith("dev.once.testing"));
    ONLY_JDK_JDBC_AND_SLF4J.check(core);
  }

  /**
   * The classes of once-core's main output only: {@code importPackages("dev.once")} alone would
   * also import the test classes and whatever else on the test classpath has a {@code dev.once}
   * package (once-embedded-postgres, a jar in a full build, a classes folder in the reactor).
   */
  static JavaClasses coreMainClasses() {
    String main = OnceSchema.class.getProtectionDomain().getCodeSource().getLocation().toString();
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .withImportOption(location -> location.asURI().toString().startsWith(main))
        .importPackages("dev.once");
  }

  /** A class that uses a JDK package outside the list, as a core class must not. */
  static final class UsesJmx {
    ObjectName name() throws Exception {
      return new ObjectName("dev.once:type=Example");
    }
  }

  @Test
  void theRuleRefusesAnyOtherPackage() {
    JavaClasses outside = new ClassFileImporter().importClasses(UsesJmx.class, getClass());

    assertThatThrownBy(() -> ONLY_JDK_JDBC_AND_SLF4J.check(outside))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("javax.management.ObjectName")
        .hasMessageContaining("org.junit.jupiter.api.Test");
  }
}
