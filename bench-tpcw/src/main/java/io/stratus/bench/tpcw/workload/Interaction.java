package io.stratus.bench.tpcw.workload;

import java.time.Duration;

/**
 * The fourteen TPC-W web interactions (specification 1.8, clause 2). Six browse the catalogue and
 * eight belong to ordering; four of them may write ({@link #isUpdate()}), which is how the papers
 * split their figures into read and update interactions. Customer Registration only looks a
 * returning customer up (the new customer is written by Buy Request), so it runs read-only.
 */
public enum Interaction {
  HOME("Home", false, 3),
  NEW_PRODUCTS("New Products", false, 5),
  BEST_SELLERS("Best Sellers", false, 5),
  PRODUCT_DETAIL("Product Detail", false, 3),
  SEARCH_REQUEST("Search Request", false, 3),
  SEARCH_RESULTS("Search Results", false, 10),
  SHOPPING_CART("Shopping Cart", true, 3),
  CUSTOMER_REGISTRATION("Customer Registration", false, 3),
  BUY_REQUEST("Buy Request", true, 3),
  BUY_CONFIRM("Buy Confirm", true, 5),
  ORDER_INQUIRY("Order Inquiry", false, 3),
  ORDER_DISPLAY("Order Display", false, 3),
  ADMIN_REQUEST("Admin Request", false, 3),
  ADMIN_CONFIRM("Admin Confirm", true, 20);

  private final String label;
  private final boolean update;
  private final int p90LimitSeconds;

  Interaction(String label, boolean update, int p90LimitSeconds) {
    this.label = label;
    this.update = update;
    this.p90LimitSeconds = p90LimitSeconds;
  }

  /** The specification's name, e.g. "Buy Confirm". */
  public String label() {
    return label;
  }

  /** Whether the interaction may write (the papers' "update interactions"). */
  public boolean isUpdate() {
    return update;
  }

  /**
   * The specification's response-time limit: at least 90% of the interactions of this type must
   * respond within it for a run to report WIPS (3 s for most, 5 s for New Products, Best Sellers
   * and Buy Confirm, 10 s for Search Results, 20 s for Admin Confirm).
   */
  public Duration p90Limit() {
    return Duration.ofSeconds(p90LimitSeconds);
  }
}
