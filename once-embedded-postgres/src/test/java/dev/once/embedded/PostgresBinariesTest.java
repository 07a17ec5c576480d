package dev.once.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.once.embedded.secrets.OwnerOnly;
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

/**
 * The binaries cache: the folder zonky unpacks into is checked before use (in a private temporary
 * cache folder), and what zonky unpacked there is the owner's only (the real cache).
 */
class PostgresBinariesTest {

  private static final Log LOG = LogFactory.getLog(PostgresBinariesTest.class);

  @TempDir Path cacheHome;

  @Test
  void theUnpackedBinariesAreTheOwnersOnly() throws Exception {
    Path bin = TestServers.bin();
    Path home = bin.getParent();
    Path cache = EmbeddedPostgresServer.cacheHome().resolve("once").resolve("postgres");

    assertThat(home.getParent()).isEqualTo(cache.toRealPath());
    for (Path folder : List.of(cache.getParent(), cache, home)) {
      assertThat(permissions(folder)).as(folder.toString()).isEqualTo("rwx------");
    }
    try (Stream<Path> tree = Files.walk(home)) {
      assertThat(tree.filter(p -> !Files.isSymbolicLink(p)).map(PostgresBinariesTest::permissions))
          .allMatch(p -> p.endsWith("------"));
    }
    Process version = new ProcessBuilder(bin.resolve("postgres").toString(), "--version").start();
    assertThat(new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .contains("PostgreSQL) 17");
  }

  @Test
  void makesOwnerOnlyFoldersAndClosesOneOpenedToOthers() throws Exception {
    Path cache = EmbeddedPostgresServer.cache(cacheHome, LOG);

    assertThat(cache).isEqualTo(cacheHome.resolve("once").resolve("postgres").toRealPath());
    for (Path folder : List.of(cacheHome.resolve("once"), cache)) {
      assertThat(permissions(folder)).as(folder.toString()).isEqualTo("rwx------");
    }

    // As zonky leaves its working folder (setWritable(true, false)), or as opened by hand.
    Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwxrwxrwx"));
    RecordingLog logs = new RecordingLog();
    assertThat(EmbeddedPostgresServer.cache(cacheHome, logs.log())).isEqualTo(cache);
    assertThat(logs.lines()).anySatisfy(line -> assertThat(line).contains("now rwx------"));
    assertThat(permissions(cache)).isEqualTo("rwx------");
  }

  @Test
  void refusesACacheFolderOfAnotherUser() throws Exception {
    assumeTrue(OwnerOnly.currentUid() == 0, "only root can give a folder to another user");
    Path foreign = Files.createDirectories(cacheHome.resolve("once"));
    Files.setAttribute(foreign, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);

    assertThatThrownBy(() -> EmbeddedPostgresServer.cache(cacheHome, LOG))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Refusing to use the PostgreSQL binaries cache " + foreign)
        .hasMessageContaining("belongs to user id 65534");
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
