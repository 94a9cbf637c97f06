package io.stratus.example.bookstore;

/**
 * A book for sale: a row of TPC-W's {@code item} table, stored as JSON in the {@value
 * Schema#ITEM} collection under its id.
 *
 * @param srpCents the suggested retail price, struck through on the product page
 * @param costCents what the shop charges
 * @param stock copies left; an order lowers it in the transaction that records the order
 */
public record Item(
    long id,
    String title,
    long authorId,
    String subject,
    String publisher,
    int pubYear,
    String description,
    String isbn,
    int pages,
    String backing,
    long srpCents,
    long costCents,
    int stock) {

  Item withStock(int newStock) {
    return new Item(
        id,
        title,
        authorId,
        subject,
        publisher,
        pubYear,
        description,
        isbn,
        pages,
        backing,
        srpCents,
        costCents,
        newStock);
  }

  /** Whether no copy is left. */
  public boolean soldOut() {
    return stock <= 0;
  }

  /** The hue (0-359) of the book's drawn cover: the same book always gets the same colour. */
  public int coverHue() {
    return (int) Math.floorMod(id * 47 + subject.hashCode(), 360L);
  }
}
