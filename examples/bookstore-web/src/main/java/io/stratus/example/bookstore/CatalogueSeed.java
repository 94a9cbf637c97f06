package io.stratus.example.bookstore;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The books and authors a new shop starts with: made up from word lists by a fixed seed, so every
 * instance (and every test) makes the same catalogue, in the spirit of TPC-W's generated
 * population but readable.
 */
final class CatalogueSeed {
  private static final long SEED = 0x5EEDB00CL;

  private static final String[] FIRST_NAMES = {
    "Ada", "Bruno", "Clara", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Keiko",
    "Lars", "Maya", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Sami", "Tove"
  };
  private static final String[] LAST_NAMES = {
    "Abbott", "Brandt", "Castell", "Duval", "Engel", "Fournier", "Garrow", "Hallam", "Ibarra",
    "Jansen", "Kowal", "Lindqvist", "Marlowe", "Novak", "Okafor", "Pryce", "Quist", "Rourke",
    "Sandoval", "Thorne"
  };
  private static final String[] ADJECTIVES = {
    "Quiet",
    "Distant",
    "Silver",
    "Hidden",
    "Burning",
    "Patient",
    "Northern",
    "Last",
    "Painted",
    "Restless",
    "Broken",
    "Golden",
    "Winter",
    "Secret",
    "Borrowed",
    "Endless"
  };
  private static final String[] NOUNS = {
    "Harbor", "Garden", "Engine", "Lantern", "Orchard", "River", "Compass", "Archive", "Kingdom",
    "Kitchen", "Signal", "Mountain", "Library", "Bridge", "Atlas", "Machine", "Voyage", "Island"
  };
  private static final String[] PUBLISHERS = {
    "Northwind Press", "Cobalt House", "Meridian Books", "Larkspur & Sons", "Tidewater Editions"
  };
  private static final String[] BACKINGS = {"Hardcover", "Paperback", "Audio", "Limited edition"};

  private CatalogueSeed() {}

  /** Authors 1 to {@code count}. */
  static List<Author> authors(int count) {
    List<Author> out = new ArrayList<>(count);
    for (int i = 1; i <= count; i++) {
      String first = FIRST_NAMES[(i - 1) % FIRST_NAMES.length];
      String last = LAST_NAMES[(i * 7 - 1) % LAST_NAMES.length];
      out.add(
          new Author(
              i,
              first,
              last,
              first + " " + last + " writes about places, people and the things they make."));
    }
    return out;
  }

  /** Items 1 to {@code count}, by authors 1 to {@code authors}, each with {@code stock} copies. */
  static List<Item> items(int count, int authors, int stock) {
    SplittableRandom random = new SplittableRandom(SEED);
    List<Item> out = new ArrayList<>(count);
    for (int i = 1; i <= count; i++) {
      String title = title(random);
      String subject = Schema.SUBJECTS.get(random.nextInt(Schema.SUBJECTS.size()));
      long cost = (5 + random.nextInt(45)) * 100L + (random.nextBoolean() ? 99 : 49);
      long srp = cost + (cost * (10 + random.nextInt(40))) / 100;
      out.add(
          new Item(
              i,
              title,
              1 + (i * 3L) % authors,
              subject,
              PUBLISHERS[random.nextInt(PUBLISHERS.length)],
              1975 + random.nextInt(50),
              "A "
                  + subject.toLowerCase(java.util.Locale.ROOT).replace('-', ' ')
                  + " book: "
                  + title
                  + " follows its people from the first page to the last.",
              isbn(random),
              120 + random.nextInt(600),
              BACKINGS[random.nextInt(BACKINGS.length)],
              srp,
              cost,
              stock));
    }
    return out;
  }

  private static String title(SplittableRandom random) {
    String adjective = ADJECTIVES[random.nextInt(ADJECTIVES.length)];
    String noun = NOUNS[random.nextInt(NOUNS.length)];
    String other = NOUNS[random.nextInt(NOUNS.length)];
    return switch (random.nextInt(3)) {
      case 0 -> adjective + " " + noun;
      case 1 -> "The " + adjective + " " + noun;
      default -> noun + " and " + other;
    };
  }

  /** A made-up ISBN-13 with a correct check digit. */
  private static String isbn(SplittableRandom random) {
    StringBuilder digits = new StringBuilder("978");
    for (int i = 0; i < 9; i++) {
      digits.append(random.nextInt(10));
    }
    int sum = 0;
    for (int i = 0; i < 12; i++) {
      sum += (digits.charAt(i) - '0') * (i % 2 == 0 ? 1 : 3);
    }
    return digits.append((10 - sum % 10) % 10).toString();
  }
}
