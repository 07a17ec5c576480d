package dev.once.client;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import dev.once.testing.PackageCycles;
import java.sql.Connection;
import org.junit.jupiter.api.Test;

/**
 * once-client is plain Java with no dependency: its classes use the JDK's {@code java.base} and
 * {@code java.net.http} packages and once-client itself, nothing else (not JDBC, not SLF4J). An
 * allow-list, so that no library slips in unnoticed; the maven-enforcer-plugin holds the module's
 * resolved dependencies to none.
 */
class ClientDependenciesTest {
  private static final ArchRule ONLY_THE_JDK =
      classes()
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "java.lang..",
              "java.io..",
              "java.net..",
              "java.nio..",
              "java.security..",
              "java.time..",
              "java.util..",
              "dev.once.client..");

  @Test
  void theClientUsesOnlyTheJdk() {
    JavaClasses client = PackageCycles.mainClassesOf(OnceClient.class);
    assertThat(client.contain(Retrier.class)).isTrue();
    ONLY_THE_JDK.check(client);
  }

  /** A class that uses JDBC, as a client class must not. */
  static final class UsesJdbc {
    void close(Connection c) throws Exception {
      c.close();
    }
  }

  @Test
  void theRuleRefusesAnyOtherPackage() {
    JavaClasses outside = new ClassFileImporter().importClasses(UsesJdbc.class, getClass());

    assertThatThrownBy(() -> ONLY_THE_JDK.check(outside))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("java.sql.Connection")
        .hasMessageContaining("org.junit.jupiter.api.Test");
  }
}
