package dev.once.verify;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.once.verify.cyclefixture.a.UsesB;
import dev.once.verify.cyclefixture.b.UsesA;
import org.junit.jupiter.api.Test;

/**
 * once-verify's packages form no cycle: each subcommand's package ({@code bench}, {@code chaos},
 * {@code check}, {@code fingerprint}, {@code kafka}) and each shared one ({@code http}, {@code
 * load}, {@code report}, {@code stats}, {@code system}) may use others only one way, so code lives
 * where its users need it.
 */
class PackageCyclesTest {
  private static final ArchRule NO_CYCLES =
      slices().matching("dev.once.verify.(**)").should().beFreeOfCycles();

  @Test
  void onceVerifysPackagesAreFreeOfCycles() {
    JavaClasses main =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.once.verify");
    NO_CYCLES.check(main);
  }

  @Test
  void theRuleRefusesTwoPackagesThatUseEachOther() {
    JavaClasses cycle = new ClassFileImporter().importClasses(UsesB.class, UsesA.class);

    assertThatThrownBy(() -> NO_CYCLES.check(cycle))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Cycle detected")
        .hasMessageContaining(UsesB.class.getName())
        .hasMessageContaining(UsesA.class.getName());
  }
}
