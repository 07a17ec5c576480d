package dev.once.verify.harness;

/**
 * How a shop process logs in to its PostgreSQL: the JDBC URL, the application's role (what the shop
 * serves requests as) and the schema owner (what its migrations run as). Passwords travel to the
 * shop through its environment, never its command line.
 *
 * @param jdbcUrl for example {@code jdbc:postgresql://localhost:5432/shop}
 * @param appUser {@code spring.datasource.username}
 * @param appPassword its password
 * @param ownerUser {@code spring.flyway.user}
 * @param ownerPassword its password
 */
public record ShopLogin(
    String jdbcUrl, String appUser, String appPassword, String ownerUser, String ownerPassword) {

  @Override
  public String toString() {
    return "ShopLogin[" + jdbcUrl + ", app " + appUser + ", owner " + ownerUser + "]";
  }
}
