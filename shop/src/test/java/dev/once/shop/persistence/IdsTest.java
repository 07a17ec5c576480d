package dev.once.shop.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The shape check that keeps malformed ids from clients away from the database. */
class IdsTest {

  @Test
  void everyGeneratedIdIsWellFormedForItsOwnPrefixOnly() {
    for (String prefix : new String[] {Ids.ACCOUNT, Ids.OPERATION, Ids.PAYMENT, Ids.REFUND}) {
      for (int i = 0; i < 1_000; i++) {
        String id = Ids.next(prefix);
        assertThat(Ids.isWellFormed(prefix, id)).as(id).isTrue();
        assertThat(Ids.isWellFormed(Ids.CLIENT, id)).as(id).isFalse();
      }
    }
  }

  @Test
  void refusesAnythingElse() {
    String good = "acc_AAAAAAAAAAAAAAAAAAAAAA";
    assertThat(Ids.isWellFormed(Ids.ACCOUNT, good)).isTrue();
    assertThat(Ids.isWellFormed(Ids.ACCOUNT, "acc_abcdefghijklmnopqrs-_9")).isTrue();
    for (String bad :
        new String[] {
          null,
          "",
          "acc_",
          "acc",
          "acc_AAAAAAAAAAAAAAAAAAAAA",
          "acc_AAAAAAAAAAAAAAAAAAAAAAA",
          "acc-AAAAAAAAAAAAAAAAAAAAAA",
          "ACC_AAAAAAAAAAAAAAAAAAAAAA",
          "pay_AAAAAAAAAAAAAAAAAAAAAA",
          "acc_AAAAAAAAAAAAAAAAAAAAA\u0000",
          "acc_AAAAAAAAAAAAAAAAAAAAA=",
          "acc_AAAAAAAAAAAAAAAAAAAAA/",
          "acc_AAAAAAAAAAAAAAAAAAAAA+",
          "acc_AAAAAAAAAAAAAAAAAAAAA ",
          "acc_AAAAAAAAAAAAAAAAAAAAAé",
          "acc_AAAAAAAAAAAAAAAAAAAAA\uFF21",
          "acc_" + "A".repeat(10_000)
        }) {
      assertThat(Ids.isWellFormed(Ids.ACCOUNT, bad)).as(String.valueOf(bad)).isFalse();
    }
  }
}
