package io.stratus.example.bookstore;

/** A purchase, stored as JSON in the {@code orders} collection under its id. */
public record Order(long id, long bookId, String title, int quantity, long totalCents) {}
