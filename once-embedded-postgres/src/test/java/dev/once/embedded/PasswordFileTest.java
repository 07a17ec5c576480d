package dev.once.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.once.embedded.secrets.OwnerOnly;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The password file on a real file system: creation, reuse, and every refusal. */
class PasswordFileTest {

  @TempDir Path temp;

  @Test
  void createsAnOwnerOnlyFileWithA256BitUrlSafePasswordAndReusesIt() throws Exception {
    Path file = temp.resolve("role.password");

    String password = EmbeddedPostgresServer.password(file);

    assertThat(password).matches("[A-Za-z0-9_-]{43}");
    assertThat(Files.readString(file)).isEqualTo(password + "\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(EmbeddedPostgresServer.password(file)).isEqualTo(password);
    assertThat(EmbeddedPostgresServer.password(temp.resolve("other.password")))
        .isNotEqualTo(password);
    try (var files = Files.list(temp)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("no temporary file is left behind")
          .containsExactlyInAnyOrder("role.password", "other.password");
    }
  }

  @Test
  void creatorsRacingForTheFileAgreeOnOnePassword() throws Exception {
    Path file = temp.resolve("raced.password");
    int racers = 8;
    CountDownLatch ready = new CountDownLatch(racers);
    ExecutorService threads = Executors.newFixedThreadPool(racers);
    try {
      List<Future<String>> passwords = new ArrayList<>();
      for (int i = 0; i < racers; i++) {
        passwords.add(
            threads.submit(
                () -> {
                  ready.countDown();
                  ready.await(); // all start together
                  return EmbeddedPostgresServer.password(file);
                }));
      }
      Set<String> distinct = new HashSet<>();
      for (Future<String> password : passwords) {
        distinct.add(password.get(30, TimeUnit.SECONDS));
      }
      assertThat(distinct).containsExactly(EmbeddedPostgresServer.password(file));
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void refusesAFileThatGroupOrOthersMayReadAndLeavesItAlone() throws Exception {
    Path file = temp.resolve("leaky.password");
    String password = EmbeddedPostgresServer.password(file);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));

    assertThatThrownBy(() -> EmbeddedPostgresServer.password(file))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("rw-r-----")
        .hasMessageContaining("may have leaked")
        .hasMessageContaining("Delete it")
        .hasMessageNotContaining(password);
    assertThat(Files.readString(file)).isEqualTo(password + "\n");
  }

  @Test
  void refusesALinkAndContentItDidNotGenerate() throws Exception {
    Path target = temp.resolve("target.password");
    EmbeddedPostgresServer.password(target);
    Path link = Files.createSymbolicLink(temp.resolve("link.password"), target);
    Path weak = Files.writeString(temp.resolve("weak.password"), "secret\n");
    Files.setPosixFilePermissions(weak, PosixFilePermissions.fromString("rw-------"));

    assertThatThrownBy(() -> EmbeddedPostgresServer.password(link))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not a regular file");
    assertThatThrownBy(() -> EmbeddedPostgresServer.password(weak))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("does not hold a generated password");
  }

  @Test
  void refusesAFileOfAnotherUser() throws Exception {
    assumeTrue(OwnerOnly.currentUid() == 0, "only root can give a file to another user");
    Path file = temp.resolve("foreign.password");
    EmbeddedPostgresServer.password(file);
    Files.setAttribute(file, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);

    assertThatThrownBy(() -> EmbeddedPostgresServer.password(file))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("belongs to user id 65534");
  }
}
