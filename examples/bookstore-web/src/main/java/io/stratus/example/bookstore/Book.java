package io.stratus.example.bookstore;

/**
 * A book for sale, stored as JSON in the {@code books} collection under its id.
 *
 * @param stock copies left; a purchase lowers it in the transaction that records the order
 */
public record Book(long id, String title, String author, long priceCents, int stock) {
  Book withStock(int newStock) {
    return new Book(id, title, author, priceCents, newStock);
  }
}
