package io.stratus.example.bookstore;

/**
 * A row of TPC-W's {@code customer} table, stored as JSON in the {@value Schema#CUSTOMER}
 * collection under its id; made at a browser's first checkout, updated by its later ones.
 */
public record Customer(
    long id,
    String firstName,
    String lastName,
    String email,
    Address address,
    long sinceMillis,
    long lastOrderMillis) {}
