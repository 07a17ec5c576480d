package dev.once.shop.database;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;

/** TEMPORARY stand-in, replaced by the embedded branch's implementation at merge. */
final class PasswordFile {
  private PasswordFile() {}

  static String readOrCreate(Path file) {
    try {
      if (Files.exists(file)) {
        return Files.readString(file, StandardCharsets.UTF_8).strip();
      }
      byte[] bytes = new byte[32];
      new SecureRandom().nextBytes(bytes);
      String password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      Files.writeString(file, password, StandardCharsets.UTF_8);
      return password;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
