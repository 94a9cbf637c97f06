package io.stratus.example.bookstore;

/** A postal address, kept inside the customer and order that use it. */
public record Address(String street, String city, String zip, String country) {}
