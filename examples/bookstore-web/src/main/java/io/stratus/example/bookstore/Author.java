package io.stratus.example.bookstore;

/**
 * A row of TPC-W's {@code author} table, stored as JSON in the {@value Schema#AUTHOR} collection
 * under its id.
 */
public record Author(long id, String firstName, String lastName, String bio) {
  /** First and last name, as a page shows it. */
  public String name() {
    return firstName + " " + lastName;
  }
}
