package dev.once.shop.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.SmallPoolShopTest;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

/**
 * A shop started without an admin token, as the README runs it: it generated one into a file only
 * its user can read, and that file's content is the admin token over HTTP.
 */
class GeneratedAdminTokenTest extends SmallPoolShopTest {

  @Test
  void theGeneratedFileIsOwnerOnlyAndItsContentIsTheAdminToken() throws Exception {
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(ADMIN_TOKEN_FILE)))
        .isEqualTo("rw-------");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(ADMIN_TOKEN_FILE.getParent())))
        .isEqualTo("rwx------");

    http.admin("/admin/v1/clients", "{\"name\":\"with the generated token\"}").assertStatus(201);
  }

  @Test
  void anyOtherTokenIsRefused() throws Exception {
    String generated = Files.readString(ADMIN_TOKEN_FILE).strip();
    ShopHttp wrong = new ShopHttp(port(), generated + "x");
    wrong.admin("/admin/v1/clients", "{\"name\":\"x\"}").assertProblem(401, "unauthorized");
  }
}
