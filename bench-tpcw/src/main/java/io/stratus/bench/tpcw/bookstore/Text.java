package io.stratus.bench.tpcw.bookstore;

import java.util.List;
import java.util.SplittableRandom;

/**
 * TPC-W's value generators (specification clause 4.6) and fixed value lists: random alphanumeric
 * a-strings, numeric n-strings, DigSyl syllable strings (user names, and here the leading word of
 * titles and last names, so that searches built with DigSyl find rows), the 24 subjects, backings,
 * ship types, order statuses, card types and the 92 countries. Stateless and thread-safe.
 */
final class Text {
  private Text() {}

  /** The 24 subjects of clause 4.7.1. */
  static final List<String> SUBJECTS =
      List.of(
          "ARTS",
          "BIOGRAPHIES",
          "BUSINESS",
          "CHILDREN",
          "COMPUTERS",
          "COOKING",
          "HEALTH",
          "HISTORY",
          "HOME",
          "HUMOR",
          "LITERATURE",
          "MYSTERY",
          "NON-FICTION",
          "PARENTING",
          "POLITICS",
          "REFERENCE",
          "RELIGION",
          "ROMANCE",
          "SELF-HELP",
          "SCIENCE-NATURE",
          "SCIENCE-FICTION",
          "SPORTS",
          "YOUTH",
          "TRAVEL");

  static final List<String> BACKINGS =
      List.of("HARDBACK", "PAPERBACK", "USED", "AUDIO", "LIMITED-EDITION");

  static final List<String> SHIP_TYPES = List.of("AIR", "UPS", "FEDEX", "SHIP", "COURIER", "MAIL");

  static final List<String> ORDER_STATUSES = List.of("PROCESSING", "SHIPPED", "PENDING", "DENIED");

  static final List<String> CARD_TYPES =
      List.of("VISA", "MASTERCARD", "DISCOVER", "AMEX", "DINERS");

  /** The 92 countries of the COUNTRY table. */
  static final List<String> COUNTRIES =
      List.of(
          "United States",
          "United Kingdom",
          "Canada",
          "Germany",
          "France",
          "Japan",
          "Netherlands",
          "Italy",
          "Switzerland",
          "Australia",
          "Algeria",
          "Argentina",
          "Armenia",
          "Austria",
          "Azerbaijan",
          "Bahamas",
          "Bahrain",
          "Bangla Desh",
          "Barbados",
          "Belarus",
          "Belgium",
          "Bermuda",
          "Bolivia",
          "Botswana",
          "Brazil",
          "Bulgaria",
          "Cayman Islands",
          "Chad",
          "Chile",
          "China",
          "Christmas Island",
          "Colombia",
          "Croatia",
          "Cuba",
          "Cyprus",
          "Czech Republic",
          "Denmark",
          "Dominican Republic",
          "Eastern Caribbean",
          "Ecuador",
          "Egypt",
          "El Salvador",
          "Estonia",
          "Ethiopia",
          "Falkland Island",
          "Faroe Island",
          "Fiji",
          "Finland",
          "Gabon",
          "Gibraltar",
          "Greece",
          "Guam",
          "Hong Kong",
          "Hungary",
          "Iceland",
          "India",
          "Indonesia",
          "Iran",
          "Iraq",
          "Ireland",
          "Israel",
          "Jamaica",
          "Jordan",
          "Kazakhstan",
          "Kuwait",
          "Lebanon",
          "Luxembourg",
          "Malaysia",
          "Mexico",
          "Mauritius",
          "New Zealand",
          "Norway",
          "Pakistan",
          "Philippines",
          "Poland",
          "Portugal",
          "Romania",
          "Russia",
          "Saudi Arabia",
          "Singapore",
          "Slovakia",
          "South Africa",
          "South Korea",
          "Spain",
          "Sudan",
          "Sweden",
          "Taiwan",
          "Thailand",
          "Trinidad",
          "Turkey",
          "Venezuela",
          "Zambia");

  private static final String[] SYLLABLES = {
    "BA", "OG", "AL", "RI", "RE", "SE", "AT", "UL", "IN", "NG"
  };
  private static final String ALPHANUMERIC =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

  /** DigSyl(n): one syllable per decimal digit of {@code n}, e.g. 371 gives "RIULOG". */
  static String digSyl(long n) {
    if (n < 0) {
      throw new IllegalArgumentException("DigSyl needs a non-negative number, got " + n);
    }
    String digits = Long.toString(n);
    StringBuilder sb = new StringBuilder(digits.length() * 2);
    for (int i = 0; i < digits.length(); i++) {
      sb.append(SYLLABLES[digits.charAt(i) - '0']);
    }
    return sb.toString();
  }

  /** An a-string of {@code min..max} random letters and digits. */
  static String aString(SplittableRandom r, int min, int max) {
    int n = r.nextInt(min, max + 1);
    char[] c = new char[n];
    for (int i = 0; i < n; i++) {
      c[i] = ALPHANUMERIC.charAt(r.nextInt(ALPHANUMERIC.length()));
    }
    return new String(c);
  }

  /** Random words of letters and digits separated by spaces, {@code min..max} characters. */
  static String words(SplittableRandom r, int min, int max) {
    int n = r.nextInt(min, max + 1);
    StringBuilder sb = new StringBuilder(n);
    while (sb.length() < n) {
      if (sb.length() > 0
          && r.nextInt(7) == 0
          && sb.charAt(sb.length() - 1) != ' '
          && sb.length() < n - 1) {
        sb.append(' ');
      } else {
        sb.append(ALPHANUMERIC.charAt(r.nextInt(ALPHANUMERIC.length())));
      }
    }
    return sb.toString();
  }

  /** An n-string of {@code min..max} random digits. */
  static String nString(SplittableRandom r, int min, int max) {
    int n = r.nextInt(min, max + 1);
    char[] c = new char[n];
    for (int i = 0; i < n; i++) {
      c[i] = (char) ('0' + r.nextInt(10));
    }
    return new String(c);
  }

  static <T> T pick(SplittableRandom r, List<T> values) {
    return values.get(r.nextInt(values.size()));
  }
}
