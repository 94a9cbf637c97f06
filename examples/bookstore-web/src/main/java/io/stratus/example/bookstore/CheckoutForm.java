package io.stratus.example.bookstore;

import java.time.YearMonth;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the checkout page asks for (TPC-W's Buy Request: the customer, the address, the shipping
 * method and the card), bound from the form's fields or from the JSON API's {@code details}.
 * Fields may be null (a missing field); {@link #problems} says which are wrong.
 *
 * @param cardExpiry {@code MM/YY}
 */
public record CheckoutForm(
    String firstName,
    String lastName,
    String email,
    String street,
    String city,
    String zip,
    String country,
    String shipType,
    String cardType,
    String cardNumber,
    String cardName,
    String cardExpiry) {

  /** TPC-W's shipping methods. */
  public static final List<String> SHIP_TYPES =
      List.of("AIR", "UPS", "FEDEX", "SHIP", "COURIER", "MAIL");

  /** TPC-W's card types. */
  public static final List<String> CARD_TYPES =
      List.of("VISA", "MASTERCARD", "DISCOVER", "AMEX", "DINERS");

  /** The countries the shop ships to. */
  public static final List<String> COUNTRIES =
      List.of(
          "Australia",
          "Canada",
          "France",
          "Germany",
          "Japan",
          "Switzerland",
          "United Kingdom",
          "United States");

  /** An empty form with the first shipping method and card type chosen. */
  static CheckoutForm blank() {
    return new CheckoutForm("", "", "", "", "", "", "United States", "AIR", "VISA", "", "", "");
  }

  /** The form filled in from what a customer gave last time (no card details). */
  static CheckoutForm of(Customer c) {
    Address a = c.address();
    return new CheckoutForm(
        c.firstName(),
        c.lastName(),
        c.email(),
        a.street(),
        a.city(),
        a.zip(),
        a.country(),
        "AIR",
        "VISA",
        "",
        c.firstName() + " " + c.lastName(),
        "");
  }

  /**
   * Field name to what is wrong with it, in the form's order; empty when the form can be sent.
   * {@code now} is the month a card must not have expired before.
   */
  public Map<String, String> problems(YearMonth now) {
    Map<String, String> p = new LinkedHashMap<>();
    required(p, "firstName", firstName, "your first name");
    required(p, "lastName", lastName, "your last name");
    if (blank(email) || !email.strip().matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+")) {
      p.put("email", "Enter an e-mail address such as ada@example.com.");
    }
    required(p, "street", street, "the street and number");
    required(p, "city", city, "the city");
    required(p, "zip", zip, "the postal code");
    choice(p, "country", country, COUNTRIES, "a country we ship to");
    choice(p, "shipType", shipType, SHIP_TYPES, "a shipping method");
    choice(p, "cardType", cardType, CARD_TYPES, "a card type");
    if (!luhn(cardDigits())) {
      p.put("cardNumber", "Enter a valid card number (13 to 19 digits), e.g. 4111 1111 1111 1111.");
    }
    required(p, "cardName", cardName, "the name on the card");
    YearMonth expiry = expiry();
    if (expiry == null) {
      p.put("cardExpiry", "Enter the card's expiry date as MM/YY.");
    } else if (expiry.isBefore(now)) {
      p.put("cardExpiry", "This card expired in " + expiry + ".");
    }
    return p;
  }

  /** The form without its card number, for a page that shows the form again. */
  CheckoutForm withoutCardNumber() {
    return new CheckoutForm(
        firstName,
        lastName,
        email,
        street,
        city,
        zip,
        country,
        shipType,
        cardType,
        "",
        cardName,
        cardExpiry);
  }

  /** The card number's digits, spaces and dashes dropped. */
  String cardDigits() {
    return cardNumber == null ? "" : cardNumber.replaceAll("[\\s-]", "");
  }

  /** The full name. */
  String name() {
    return firstName.strip() + " " + lastName.strip();
  }

  /** The shipping address. */
  Address address() {
    return new Address(street.strip(), city.strip(), zip.strip(), country);
  }

  private YearMonth expiry() {
    if (cardExpiry == null || !cardExpiry.strip().matches("(0[1-9]|1[0-2])/\\d\\d")) {
      return null;
    }
    String[] mmYy = cardExpiry.strip().split("/");
    return YearMonth.of(2000 + Integer.parseInt(mmYy[1]), Integer.parseInt(mmYy[0]));
  }

  private static void required(Map<String, String> p, String field, String value, String what) {
    if (blank(value)) {
      p.put(field, "Enter " + what + ".");
    } else if (value.length() > 100) {
      p.put(field, "Shorten " + what + " to 100 characters.");
    }
  }

  private static void choice(
      Map<String, String> p, String field, String value, List<String> allowed, String what) {
    if (value == null || !allowed.contains(value)) {
      p.put(field, "Choose " + what + ".");
    }
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }

  /** The Luhn check that card numbers carry in their last digit. */
  private static boolean luhn(String digits) {
    if (!digits.matches("\\d{13,19}")) {
      return false;
    }
    int sum = 0;
    for (int i = 0; i < digits.length(); i++) {
      int d = digits.charAt(digits.length() - 1 - i) - '0';
      if (i % 2 == 1) {
        d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      }
      sum += d;
    }
    return sum % 10 == 0;
  }
}
