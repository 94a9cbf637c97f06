package io.stratus.bench.tpcw.workload;

/**
 * The fourteen TPC-W web interactions (specification 1.8, clause 2). Six browse the catalogue and
 * eight belong to ordering; four of them may write ({@link #isUpdate()}), which is how the papers
 * split their figures into read and update interactions. Customer Registration only looks a
 * returning customer up (the new customer is written by Buy Request), so it runs read-only.
 */
public enum Interaction {
  HOME("Home", false),
  NEW_PRODUCTS("New Products", false),
  BEST_SELLERS("Best Sellers", false),
  PRODUCT_DETAIL("Product Detail", false),
  SEARCH_REQUEST("Search Request", false),
  SEARCH_RESULTS("Search Results", false),
  SHOPPING_CART("Shopping Cart", true),
  CUSTOMER_REGISTRATION("Customer Registration", false),
  BUY_REQUEST("Buy Request", true),
  BUY_CONFIRM("Buy Confirm", true),
  ORDER_INQUIRY("Order Inquiry", false),
  ORDER_DISPLAY("Order Display", false),
  ADMIN_REQUEST("Admin Request", false),
  ADMIN_CONFIRM("Admin Confirm", true);

  private final String label;
  private final boolean update;

  Interaction(String label, boolean update) {
    this.label = label;
    this.update = update;
  }

  /** The specification's name, e.g. "Buy Confirm". */
  public String label() {
    return label;
  }

  /** Whether the interaction may write (the papers' "update interactions"). */
  public boolean isUpdate() {
    return update;
  }
}
