package io.stratus.example.bookstore;

/**
 * A row of TPC-W's {@code orders} table, stored as JSON in the {@value Schema#ORDERS} collection
 * under its id (from the {@value Schema#ORDER_IDS} sequence). The card's type, holder and last
 * four digits, TPC-W's {@code cc_xacts} row, are kept in the order; the card number is not kept.
 */
public record Order(
    long id,
    long customerId,
    long placedMillis,
    long subtotalCents,
    long taxCents,
    long shipCents,
    long totalCents,
    int copies,
    String shipType,
    String status,
    String name,
    Address shipTo,
    String cardType,
    String cardLast4) {}
