package io.stratus.example.bookstore;

import java.util.List;

/** An order with its lines: what the confirmation page shows and the JSON API returns. */
public record PlacedOrder(Order order, List<OrderLine> lines) {}
