package dev.once.spring.internal;

import javax.sql.DataSource;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.ResourceTransactionManager;
import org.springframework.util.ClassUtils;

/**
 * Whether the application's transaction manager manages the DataSource Once writes to, so that
 * Once's rows (a key claim, an inbox record) and the application's writes share one transaction.
 *
 * <p>Spring's JDBC transaction managers manage their DataSource itself. A {@link
 * JpaTransactionManager} manages an EntityManagerFactory, and exposes the JDBC connection of its
 * transaction on its DataSource ({@link JpaTransactionManager#getDataSource()}, taken from the
 * EntityManagerFactory as Spring Boot sets it up): JDBC code on that DataSource, Once's included,
 * then uses the very connection Hibernate writes through. A transaction manager that is no {@link
 * ResourceTransactionManager} (JTA) is taken on trust.
 */
public final class SameDataSource {
  private static final boolean JPA =
      ClassUtils.isPresent(
          "org.springframework.orm.jpa.JpaTransactionManager",
          SameDataSource.class.getClassLoader());

  private SameDataSource() {}

  /**
   * @throws IllegalStateException naming {@code what} if {@code transactions} manages another
   *     DataSource (or, for JPA, exposes none)
   */
  public static void require(
      PlatformTransactionManager transactions, DataSource dataSource, String what) {
    if (!manages(transactions, dataSource)) {
      throw new IllegalStateException(
          "Once needs the transaction manager to manage the same DataSource as "
              + what
              + " (a JpaTransactionManager: the DataSource of its EntityManagerFactory); "
              + transactions.getClass().getName()
              + " manages another one.");
    }
  }

  public static boolean manages(PlatformTransactionManager transactions, DataSource dataSource) {
    if (JPA && Jpa.isJpa(transactions)) {
      return Jpa.dataSource(transactions) == dataSource;
    }
    return !(transactions instanceof ResourceTransactionManager resources)
        || resources.getResourceFactory() == dataSource;
  }

  /** Loaded only when Spring's JPA support is on the class path. */
  private static final class Jpa {
    static boolean isJpa(PlatformTransactionManager transactions) {
      return transactions instanceof JpaTransactionManager;
    }

    /** The EntityManagerFactory's DataSource, which the transaction manager takes on its start. */
    static DataSource dataSource(PlatformTransactionManager transactions) {
      return ((JpaTransactionManager) transactions).getDataSource();
    }
  }
}
