package io.stratus.example.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checkout's rules without a server: the form's checks, the totals, the cart's lines. */
class CheckoutFormTest {
  private static final YearMonth NOW = YearMonth.of(2026, 11);

  private static CheckoutForm form(String cardNumber, String expiry) {
    return new CheckoutForm(
        "Ada",
        "Lovelace",
        "ada@example.com",
        "1 Main St",
        "London",
        "N1",
        "United Kingdom",
        "AIR",
        "VISA",
        cardNumber,
        "A. Lovelace",
        expiry);
  }

  @Test
  void aGoodFormHasNoProblems() {
    assertThat(form("4111 1111 1111 1111", "11/26").problems(NOW)).isEmpty();
    assertThat(form("4111-1111-1111-1111", "01/30").cardDigits()).isEqualTo("4111111111111111");
  }

  @Test
  void eachBadFieldIsNamed() {
    assertThat(form("4111 1111 1111 1112", "10/26").problems(NOW))
        .containsOnlyKeys("cardNumber", "cardExpiry");
    assertThat(form("4111", "13/26").problems(NOW)).containsOnlyKeys("cardNumber", "cardExpiry");
    CheckoutForm empty =
        new CheckoutForm(null, "", null, null, null, null, "Mars", "BIKE", null, null, null, null);
    assertThat(empty.problems(NOW))
        .containsOnlyKeys(
            "firstName",
            "lastName",
            "email",
            "street",
            "city",
            "zip",
            "country",
            "shipType",
            "cardType",
            "cardNumber",
            "cardName",
            "cardExpiry");
    assertThat(form("", "").withoutCardNumber().cardNumber()).isEmpty();
  }

  @Test
  void totalsFollowTpcwRules() {
    Totals t = Totals.of(3, 10_000); // $100.00 for three copies
    assertThat(t.taxCents()).isEqualTo(825);
    assertThat(t.shipCents()).isEqualTo(600);
    assertThat(t.totalCents()).isEqualTo(11_425);
    assertThat(Totals.of(1, 1_999).taxCents()).isEqualTo(165); // 164.9175 rounds up
    assertThat(Totals.of(0, 0).totalCents()).isZero();
  }

  @Test
  void aCartKeepsOneLinePerBookInOrder() {
    ShoppingCart cart =
        ShoppingCart.empty("c").withQuantity(4, 2, 1).withQuantity(7, 1, 2).withQuantity(4, 5, 3);
    assertThat(cart.lines())
        .containsExactly(new ShoppingCart.Line(4, 5), new ShoppingCart.Line(7, 1));
    assertThat(cart.quantityOf(4)).isEqualTo(5);
    assertThat(cart.withQuantity(4, 0, 4).lines()).containsExactly(new ShoppingCart.Line(7, 1));
    assertThat(cart.checkedOut(9, 5))
        .extracting(ShoppingCart::lines, ShoppingCart::customerId)
        .containsExactly(List.of(), 9L);
  }
}
