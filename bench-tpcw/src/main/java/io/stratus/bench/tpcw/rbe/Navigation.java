package io.stratus.bench.tpcw.rbe;

import static io.stratus.bench.tpcw.workload.Interaction.ADMIN_CONFIRM;
import static io.stratus.bench.tpcw.workload.Interaction.ADMIN_REQUEST;
import static io.stratus.bench.tpcw.workload.Interaction.BEST_SELLERS;
import static io.stratus.bench.tpcw.workload.Interaction.BUY_CONFIRM;
import static io.stratus.bench.tpcw.workload.Interaction.BUY_REQUEST;
import static io.stratus.bench.tpcw.workload.Interaction.CUSTOMER_REGISTRATION;
import static io.stratus.bench.tpcw.workload.Interaction.HOME;
import static io.stratus.bench.tpcw.workload.Interaction.NEW_PRODUCTS;
import static io.stratus.bench.tpcw.workload.Interaction.ORDER_DISPLAY;
import static io.stratus.bench.tpcw.workload.Interaction.ORDER_INQUIRY;
import static io.stratus.bench.tpcw.workload.Interaction.PRODUCT_DETAIL;
import static io.stratus.bench.tpcw.workload.Interaction.SEARCH_REQUEST;
import static io.stratus.bench.tpcw.workload.Interaction.SEARCH_RESULTS;
import static io.stratus.bench.tpcw.workload.Interaction.SHOPPING_CART;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.Mix;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * How an emulated browser moves between pages: the transition-probability matrices of TPC-W 1.8,
 * clause 5.2.2, one per mix, as a Markov chain over the fourteen interactions. The state is the
 * page the browser is on; the next page is drawn from that page's row. A browser starts at Home
 * (the specification's INIT state has the single transition INIT to Home).
 *
 * <p>The specification writes each row cumulatively in units of 1/9999, in the column order Admin
 * Confirm, Admin Request, Best Sellers, Buy Confirm, Buy Request, Customer Registration, Home, New
 * Products, Order Display, Order Inquiry, Product Detail, Search Request, Search Results, Shopping
 * Cart; a draw picks a uniform integer in [1, 9999] and goes to the first column whose cumulative
 * value is at least the draw. The rows below keep that form, so each can be checked against the
 * specification number by number. Source of the numbers (facts only; the code is ours): the
 * public Java TPC-W implementation of the University of Wisconsin (jopereira/java-tpcw, {@code
 * src/rbe/EBTPCW1Factory.java} for browsing, {@code EBTPCW3Factory.java} for ordering; the
 * shopping matrix from a copy of {@code EBTPCW2Factory}'s numbers in Bench4Q-TPCW). Bench4Q's copy
 * of the browsing matrix sends Buy Confirm to Home with probability 1; we keep Wisconsin's row
 * (3.42% Home, the rest Search Request) because only it reproduces the mix table.
 *
 * <p>Checked against the mix table: the stationary distribution of each chain matches {@link
 * Mix#percent} within 0.006 percentage points for every interaction of every mix (the table is
 * rounded to 0.01 and the matrix to 1/9999); {@code NavigationTest} asserts 0.01. So no deviation
 * from the table needs reporting.
 *
 * <p>Immutable and thread-safe; each browser brings its own random source.
 */
final class Navigation {
  /** The specification's probability unit: rows are cumulative counts out of this. */
  static final int SCALE = 9999;

  private static final Map<Mix, Navigation> BY_MIX = new EnumMap<>(Mix.class);

  static {
    BY_MIX.put(Mix.BROWSING, browsing());
    BY_MIX.put(Mix.SHOPPING, shopping());
    BY_MIX.put(Mix.ORDERING, ordering());
  }

  private final Mix mix;
  private final Map<Interaction, Row> rows;

  private Navigation(Mix mix, Map<Interaction, Row> rows) {
    for (Interaction from : Interaction.values()) {
      if (!rows.containsKey(from)) {
        throw new IllegalStateException(mix + " has no row for " + from);
      }
    }
    this.mix = mix;
    this.rows = rows;
  }

  /** The chain of {@code mix}. */
  static Navigation of(Mix mix) {
    return BY_MIX.get(mix);
  }

  Mix mix() {
    return mix;
  }

  /** The page every browser starts on, and returns to when its user session ends. */
  static Interaction start() {
    return HOME;
  }

  /** The page after {@code current}, drawn from its row. */
  Interaction next(Interaction current, SplittableRandom random) {
    Row row = rows.get(current);
    int draw = 1 + random.nextInt(SCALE);
    for (int i = 0; i < row.cumulative.length; i++) {
      if (row.cumulative[i] >= draw) {
        return row.targets[i];
      }
    }
    throw new AssertionError("row of " + current + " does not end at " + SCALE);
  }

  /** The probability of going from {@code from} to {@code to} in one step. */
  double probability(Interaction from, Interaction to) {
    Row row = rows.get(from);
    int previous = 0;
    for (int i = 0; i < row.cumulative.length; i++) {
      if (row.targets[i] == to) {
        return (row.cumulative[i] - previous) / (double) SCALE;
      }
      previous = row.cumulative[i];
    }
    return 0;
  }

  /** The one-step matrix, indexed by {@link Interaction#ordinal()}. */
  double[][] matrix() {
    Interaction[] all = Interaction.values();
    double[][] p = new double[all.length][all.length];
    for (Interaction from : all) {
      for (Interaction to : all) {
        p[from.ordinal()][to.ordinal()] = probability(from, to);
      }
    }
    return p;
  }

  // ---------------------------------------------------------------------------------------------
  // The matrices. Each row lists the reachable pages in the specification's column order with
  // their cumulative values out of 9999.

  private static Navigation browsing() {
    Rows r = new Rows();
    r.from(ADMIN_CONFIRM).to(HOME, 9877).to(SEARCH_REQUEST, 9999);
    r.from(ADMIN_REQUEST).to(ADMIN_CONFIRM, 8999).to(HOME, 9999);
    r.from(BEST_SELLERS)
        .to(HOME, 4607)
        .to(PRODUCT_DETAIL, 5259)
        .to(SEARCH_REQUEST, 9942)
        .to(SHOPPING_CART, 9999);
    r.from(BUY_CONFIRM).to(HOME, 342).to(SEARCH_REQUEST, 9999);
    r.from(BUY_REQUEST).to(BUY_CONFIRM, 9199).to(HOME, 9595).to(SHOPPING_CART, 9999);
    r.from(CUSTOMER_REGISTRATION).to(BUY_REQUEST, 9145).to(HOME, 9619).to(SEARCH_REQUEST, 9999);
    r.from(HOME)
        .to(BEST_SELLERS, 3792)
        .to(NEW_PRODUCTS, 7585)
        .to(ORDER_INQUIRY, 7688)
        .to(SEARCH_REQUEST, 9559)
        .to(SHOPPING_CART, 9999);
    r.from(NEW_PRODUCTS)
        .to(HOME, 299)
        .to(PRODUCT_DETAIL, 9867)
        .to(SEARCH_REQUEST, 9941)
        .to(SHOPPING_CART, 9999);
    r.from(ORDER_DISPLAY).to(HOME, 802).to(SEARCH_REQUEST, 9999);
    r.from(ORDER_INQUIRY).to(HOME, 523).to(ORDER_DISPLAY, 8856).to(SEARCH_REQUEST, 9999);
    r.from(PRODUCT_DETAIL)
        .to(ADMIN_REQUEST, 47)
        .to(HOME, 8346)
        .to(PRODUCT_DETAIL, 9749)
        .to(SEARCH_REQUEST, 9890)
        .to(SHOPPING_CART, 9999);
    r.from(SEARCH_REQUEST).to(HOME, 788).to(SEARCH_RESULTS, 9955).to(SHOPPING_CART, 9999);
    r.from(SEARCH_RESULTS)
        .to(HOME, 3674)
        .to(PRODUCT_DETAIL, 9868)
        .to(SEARCH_REQUEST, 9942)
        .to(SHOPPING_CART, 9999);
    r.from(SHOPPING_CART).to(CUSTOMER_REGISTRATION, 4099).to(HOME, 8883).to(SHOPPING_CART, 9999);
    return new Navigation(Mix.BROWSING, r.rows);
  }

  private static Navigation shopping() {
    Rows r = new Rows();
    r.from(ADMIN_CONFIRM).to(HOME, 9952).to(SEARCH_REQUEST, 9999);
    r.from(ADMIN_REQUEST).to(ADMIN_CONFIRM, 8999).to(HOME, 9999);
    r.from(BEST_SELLERS)
        .to(HOME, 167)
        .to(PRODUCT_DETAIL, 472)
        .to(SEARCH_REQUEST, 9927)
        .to(SHOPPING_CART, 9999);
    r.from(BUY_CONFIRM).to(HOME, 84).to(SEARCH_REQUEST, 9999);
    r.from(BUY_REQUEST).to(BUY_CONFIRM, 4614).to(HOME, 6546).to(SHOPPING_CART, 9999);
    r.from(CUSTOMER_REGISTRATION).to(BUY_REQUEST, 8666).to(HOME, 8760).to(SEARCH_REQUEST, 9999);
    r.from(HOME)
        .to(BEST_SELLERS, 3124)
        .to(NEW_PRODUCTS, 6249)
        .to(ORDER_INQUIRY, 6718)
        .to(SEARCH_REQUEST, 7026)
        .to(SHOPPING_CART, 9999);
    r.from(NEW_PRODUCTS)
        .to(HOME, 156)
        .to(PRODUCT_DETAIL, 9735)
        .to(SEARCH_REQUEST, 9784)
        .to(SHOPPING_CART, 9999);
    r.from(ORDER_DISPLAY).to(HOME, 69).to(SEARCH_REQUEST, 9999);
    r.from(ORDER_INQUIRY).to(HOME, 72).to(ORDER_DISPLAY, 8872).to(SEARCH_REQUEST, 9999);
    r.from(PRODUCT_DETAIL)
        .to(ADMIN_REQUEST, 58)
        .to(HOME, 832)
        .to(PRODUCT_DETAIL, 1288)
        .to(SEARCH_REQUEST, 8603)
        .to(SHOPPING_CART, 9999);
    r.from(SEARCH_REQUEST).to(HOME, 635).to(SEARCH_RESULTS, 9135).to(SHOPPING_CART, 9999);
    r.from(SEARCH_RESULTS)
        .to(HOME, 2657)
        .to(PRODUCT_DETAIL, 9294)
        .to(SEARCH_REQUEST, 9304)
        .to(SHOPPING_CART, 9999);
    r.from(SHOPPING_CART).to(CUSTOMER_REGISTRATION, 2585).to(HOME, 9552).to(SHOPPING_CART, 9999);
    return new Navigation(Mix.SHOPPING, r.rows);
  }

  private static Navigation ordering() {
    Rows r = new Rows();
    r.from(ADMIN_CONFIRM).to(HOME, 8348).to(SEARCH_REQUEST, 9999);
    r.from(ADMIN_REQUEST).to(ADMIN_CONFIRM, 8999).to(HOME, 9999);
    r.from(BEST_SELLERS)
        .to(HOME, 1)
        .to(PRODUCT_DETAIL, 333)
        .to(SEARCH_REQUEST, 9998)
        .to(SHOPPING_CART, 9999);
    r.from(BUY_CONFIRM).to(HOME, 2).to(SEARCH_REQUEST, 9999);
    r.from(BUY_REQUEST).to(BUY_CONFIRM, 7999).to(HOME, 9453).to(SHOPPING_CART, 9999);
    r.from(CUSTOMER_REGISTRATION).to(BUY_REQUEST, 9899).to(HOME, 9901).to(SEARCH_REQUEST, 9999);
    r.from(HOME)
        .to(BEST_SELLERS, 499)
        .to(NEW_PRODUCTS, 999)
        .to(ORDER_INQUIRY, 1269)
        .to(SEARCH_REQUEST, 1295)
        .to(SHOPPING_CART, 9999);
    r.from(NEW_PRODUCTS)
        .to(HOME, 504)
        .to(PRODUCT_DETAIL, 9942)
        .to(SEARCH_REQUEST, 9976)
        .to(SHOPPING_CART, 9999);
    r.from(ORDER_DISPLAY).to(HOME, 9939).to(SEARCH_REQUEST, 9999);
    r.from(ORDER_INQUIRY).to(HOME, 1168).to(ORDER_DISPLAY, 9968).to(SEARCH_REQUEST, 9999);
    r.from(PRODUCT_DETAIL)
        .to(ADMIN_REQUEST, 99)
        .to(HOME, 3750)
        .to(PRODUCT_DETAIL, 5621)
        .to(SEARCH_REQUEST, 6341)
        .to(SHOPPING_CART, 9999);
    r.from(SEARCH_REQUEST).to(HOME, 815).to(SEARCH_RESULTS, 9815).to(SHOPPING_CART, 9999);
    r.from(SEARCH_RESULTS)
        .to(HOME, 486)
        .to(PRODUCT_DETAIL, 7817)
        .to(SEARCH_REQUEST, 9998)
        .to(SHOPPING_CART, 9999);
    r.from(SHOPPING_CART).to(CUSTOMER_REGISTRATION, 9499).to(HOME, 9918).to(SHOPPING_CART, 9999);
    return new Navigation(Mix.ORDERING, r.rows);
  }

  /** One row: the reachable pages and their cumulative values, strictly increasing to 9999. */
  private static final class Row {
    final Interaction[] targets;
    final int[] cumulative;

    Row(List<Interaction> targets, List<Integer> cumulative) {
      this.targets = targets.toArray(new Interaction[0]);
      this.cumulative = cumulative.stream().mapToInt(Integer::intValue).toArray();
    }
  }

  /** Collects rows and checks each is a well-formed cumulative row. */
  private static final class Rows {
    final Map<Interaction, Row> rows = new EnumMap<>(Interaction.class);

    RowBuilder from(Interaction from) {
      return new RowBuilder(this, from);
    }
  }

  private static final class RowBuilder {
    private final Rows owner;
    private final Interaction from;
    private final List<Interaction> targets = new ArrayList<>();
    private final List<Integer> cumulative = new ArrayList<>();

    RowBuilder(Rows owner, Interaction from) {
      this.owner = owner;
      this.from = from;
    }

    RowBuilder to(Interaction target, int cumulativeValue) {
      int previous = cumulative.isEmpty() ? 0 : cumulative.get(cumulative.size() - 1);
      if (cumulativeValue <= previous || cumulativeValue > SCALE || targets.contains(target)) {
        throw new IllegalStateException("bad transition " + from + " -> " + target);
      }
      targets.add(target);
      cumulative.add(cumulativeValue);
      if (cumulativeValue == SCALE) {
        owner.rows.put(from, new Row(targets, cumulative));
      }
      return this;
    }
  }
}
