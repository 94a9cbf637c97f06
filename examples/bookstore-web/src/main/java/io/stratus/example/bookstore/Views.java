package io.stratus.example.bookstore;

import java.util.List;

/** What the pages and the JSON API show: read in one transaction each. */
public final class Views {
  private Views() {}

  /** A book as a list shows it: the item and its author. */
  public record Listing(Item item, Author author) {}

  /**
   * One page of a list of books.
   *
   * @param page from 1
   * @param hasNext whether a next page has books
   */
  public record CataloguePage(List<Listing> listings, int page, boolean hasNext) {
    /** Whether a previous page exists. */
    public boolean hasPrevious() {
      return page > 1;
    }
  }

  /** A product page: the book, its author, and a few more of the author's books. */
  public record Product(Item item, Author author, List<Item> moreByAuthor) {}

  /**
   * A cart line as the cart page shows it.
   *
   * @param problem why the line cannot be ordered as it is (too few copies left), or null
   */
  public record CartRow(Item item, int quantity, String problem) {
    /** Price times quantity. */
    public long totalCents() {
      return item.costCents() * quantity;
    }
  }

  /** A cart with its books and totals. */
  public record Cart(List<CartRow> rows, Totals totals) {
    /** Whether the cart can be checked out: it has books, and each has enough copies left. */
    public boolean canCheckOut() {
      return !rows.isEmpty() && rows.stream().allMatch(r -> r.problem() == null);
    }

    /** The copies in the cart. */
    public int copies() {
      return totals.copies();
    }
  }
}
