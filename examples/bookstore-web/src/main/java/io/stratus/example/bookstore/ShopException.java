package io.stratus.example.bookstore;

import java.util.List;
import java.util.Map;

/**
 * What the shop refuses, each with a message for the customer; nothing was changed. Failures of
 * the database itself are {@link io.stratus.StratusException}s and are not wrapped.
 */
public abstract class ShopException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ShopException(String message) {
    super(message);
  }

  /** A book or order that does not exist (or that this browser may not see). */
  public static final class NotFound extends ShopException {
    private static final long serialVersionUID = 1L;

    NotFound(String what) {
      super(what + " was not found");
    }
  }

  /** Too few copies of a book for an order or a cart. */
  public static final class OutOfStock extends ShopException {
    private static final long serialVersionUID = 1L;

    /** A book of the order and how many copies were asked for and are left. */
    public record Shortage(long itemId, String title, int asked, int left) {}

    @SuppressWarnings("serial") // an immutable list of records
    private final List<Shortage> shortages;

    OutOfStock(List<Shortage> shortages) {
      super(describe(shortages));
      this.shortages = List.copyOf(shortages);
    }

    /** Every book of the order that has too few copies left. */
    public List<Shortage> shortages() {
      return shortages;
    }

    private static String describe(List<Shortage> shortages) {
      List<String> parts = new java.util.ArrayList<>();
      for (Shortage s : shortages) {
        parts.add(
            s.left() == 0
                ? "\"" + s.title() + "\" is sold out"
                : "only " + s.left() + " of \"" + s.title() + "\" left, " + s.asked() + " wanted");
      }
      return String.join("; ", parts);
    }
  }

  /** A checkout of an empty cart (e.g. the same checkout sent twice). */
  public static final class EmptyCart extends ShopException {
    private static final long serialVersionUID = 1L;

    EmptyCart() {
      super("the cart is empty");
    }
  }

  /** A request with values the shop cannot take, field by field. */
  public static final class Invalid extends ShopException {
    private static final long serialVersionUID = 1L;

    @SuppressWarnings("serial") // an immutable map of strings
    private final Map<String, String> problems;

    Invalid(Map<String, String> problems) {
      super(String.join("; ", problems.values()));
      this.problems = Map.copyOf(problems);
    }

    /** Field name to what is wrong with it. */
    public Map<String, String> problems() {
      return problems;
    }
  }
}
