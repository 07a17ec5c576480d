package dev.once.shop.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.once.shop.secrets.OwnerOnly;
import dev.once.shop.support.LogCapture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The binaries cache in a private temporary cache folder: real unpacks, real tampering. */
class PostgresBinariesTest {

  private static final Log LOG = LogFactory.getLog(PostgresBinariesTest.class);

  @TempDir Path cache;

  @Test
  void unpacksIntoOwnerOnlyFoldersAndUnpacksAgainWhatWasAlteredOrOpened() throws Exception {
    PostgresBinaries binaries = PostgresBinaries.unpackIfNeeded(cache, LOG);
    Path home = binaries.home();

    assertThat(home.getParent()).isEqualTo(cache.resolve("once").resolve("postgres"));
    for (Path folder : List.of(cache.resolve("once"), home.getParent(), home)) {
      assertThat(permissions(folder)).as(folder.toString()).isEqualTo("rwx------");
    }
    try (Stream<Path> tree = Files.walk(home)) {
      assertThat(tree.filter(p -> !Files.isSymbolicLink(p)).map(PostgresBinariesTest::permissions))
          .allMatch(p -> p.endsWith("------"));
    }
    Process version = new ProcessBuilder(binaries.command("postgres", "--version")).start();
    assertThat(new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .contains("PostgreSQL) 17");

    Path initdb = home.resolve("bin").resolve("initdb");
    byte[] original = Files.readAllBytes(initdb);
    Files.writeString(initdb, "#!/bin/sh\necho altered\n");
    assertThat(unpackedAgain(home)).contains("differs from its once-manifest.txt");
    assertThat(Files.readAllBytes(initdb)).isEqualTo(original);

    Files.setPosixFilePermissions(
        home.resolve("lib"), PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThat(unpackedAgain(home)).contains("lib: its permissions are rwxrwxrwx");
    assertThat(permissions(home.resolve("lib"))).isEqualTo("rwx------");

    // A cache folder opened to others is closed again; what it holds is checked as always.
    Files.setPosixFilePermissions(home.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
    try (LogCapture logs = LogCapture.start()) {
      assertThat(PostgresBinaries.unpackIfNeeded(cache, LOG).home()).isEqualTo(home);
      assertThat(logs.events())
          .anySatisfy(e -> assertThat(e.getFormattedMessage()).contains("now rwx------"))
          .noneSatisfy(e -> assertThat(e.getFormattedMessage()).contains("again"));
    }
    assertThat(permissions(home.getParent())).isEqualTo("rwx------");
  }

  @Test
  void refusesACacheFolderOfAnotherUser() throws Exception {
    assumeTrue(OwnerOnly.currentUid() == 0, "only root can give a folder to another user");
    Path foreign = Files.createDirectories(cache.resolve("once"));
    Files.setAttribute(foreign, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);

    assertThatThrownBy(() -> PostgresBinaries.unpackIfNeeded(cache, LOG))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Refusing to use the PostgreSQL binaries cache " + foreign)
        .hasMessageContaining("belongs to user id 65534");
  }

  /** Checks the cache again and returns the warning that says why it was unpacked again. */
  private static String unpackedAgain(Path home) {
    try (LogCapture logs = LogCapture.start()) {
      assertThat(
              PostgresBinaries.unpackIfNeeded(home.getParent().getParent().getParent(), LOG).home())
          .isEqualTo(home);
      return logs.events().stream()
          .map(e -> e.getFormattedMessage())
          .filter(m -> m.startsWith("Unpacking the PostgreSQL binaries again: " + home))
          .findFirst()
          .orElseThrow(() -> new AssertionError("not unpacked again: " + logs.events()));
    }
  }

  private static String permissions(Path path) {
    try {
      return PosixFilePermissions.toString(
          Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
