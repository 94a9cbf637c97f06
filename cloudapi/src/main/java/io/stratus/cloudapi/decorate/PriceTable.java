package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.Operation;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a provider charges per request and per byte transferred, to price a {@link MeterSnapshot}.
 *
 * <p>Every {@link Operation} belongs to exactly one {@link PriceClass}: a price per request and
 * whether a request is one call or one 64 KiB unit of payload (SQS). Transfer is priced per GB,
 * where a GB is 2<sup>30</sup> bytes as AWS bills it: "in" applies to the bytes the client sends
 * (into the cloud), "out" to the bytes it receives.
 *
 * <p>All amounts are exact {@link BigDecimal} dollars; a price per request must have a finite
 * decimal expansion (e.g. $0.01 per 1,000 = $0.00001), which the builder checks, so costs are
 * computed without rounding. Immutable and thread-safe. {@link PriceTables} has the two standard
 * tables.
 */
public final class PriceTable {
  /** The {@link MeterSnapshot#costBreakdown} key of the transfer of bytes sent by the client. */
  public static final String TRANSFER_IN = "transfer in";

  /** The {@link MeterSnapshot#costBreakdown} key of the transfer of bytes the client receives. */
  public static final String TRANSFER_OUT = "transfer out";

  /** Bytes per billed GB: 2^30, as AWS bills transfer. */
  static final BigDecimal BYTES_PER_GB = BigDecimal.valueOf(1L << 30);

  /** How requests of a price class are counted. */
  public enum Billing {
    /** Each call is one request. */
    PER_CALL,
    /** Each call is {@code max(1, ceil(payload / 64 KiB))} requests (SQS). */
    PER_64KIB_UNIT
  }

  /**
   * A group of operations with one price.
   *
   * @param name unique within its table, e.g. {@code "storage put"}
   * @param pricePerRequest exact dollars per request (per unit for {@link Billing#PER_64KIB_UNIT})
   */
  public record PriceClass(String name, BigDecimal pricePerRequest, Billing billing) {
    public PriceClass {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(pricePerRequest, "pricePerRequest");
      Objects.requireNonNull(billing, "billing");
    }
  }

  private final String name;
  private final List<PriceClass> classes;
  private final Map<Operation, PriceClass> byOperation;
  private final BigDecimal transferInPerGb;
  private final BigDecimal transferOutPerGb;

  private PriceTable(
      String name,
      List<PriceClass> classes,
      Map<Operation, PriceClass> byOperation,
      BigDecimal transferInPerGb,
      BigDecimal transferOutPerGb) {
    this.name = name;
    this.classes = List.copyOf(classes);
    this.byOperation = byOperation;
    this.transferInPerGb = transferInPerGb;
    this.transferOutPerGb = transferOutPerGb;
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  public String name() {
    return name;
  }

  /** The price classes in the order they were defined. */
  public List<PriceClass> priceClasses() {
    return classes;
  }

  /** The class {@code op} is priced by. */
  public PriceClass priceClass(Operation op) {
    // Never null: build() refuses a table that leaves an operation unpriced.
    return Objects.requireNonNull(byOperation.get(Objects.requireNonNull(op, "op")));
  }

  /** Dollars per GB (2^30 bytes) the client sends. */
  public BigDecimal transferInPerGb() {
    return transferInPerGb;
  }

  /** Dollars per GB (2^30 bytes) the client receives. */
  public BigDecimal transferOutPerGb() {
    return transferOutPerGb;
  }

  /** Dollars for moving {@code bytes} at {@code perGb}: exact, since 1/2^30 is a finite decimal. */
  static BigDecimal transferCost(long bytes, BigDecimal perGb) {
    if (bytes == 0 || perGb.signum() == 0) {
      return BigDecimal.ZERO;
    }
    return perGb.multiply(BigDecimal.valueOf(bytes)).divide(BYTES_PER_GB);
  }

  /**
   * The same table with free transfer: a client inside the cloud (EC2 talking to S3 or SQS in its
   * region pays requests, not bandwidth; paper 000 section 2.2.2).
   */
  public PriceTable withoutTransfer() {
    return new PriceTable(
        name + " without transfer", classes, byOperation, BigDecimal.ZERO, BigDecimal.ZERO);
  }

  @Override
  public String toString() {
    return "PriceTable{"
        + name
        + ", "
        + classes
        + ", transfer in "
        + transferInPerGb
        + "/GB, out "
        + transferOutPerGb
        + "/GB}";
  }

  /**
   * Defines price classes and transfer prices; each setting is validated as it is given, and {@link
   * #build()} checks that every operation has a class.
   */
  public static final class Builder {
    private final String name;
    private final List<PriceClass> classes = new ArrayList<>();
    private final Map<Operation, PriceClass> byOperation = new EnumMap<>(Operation.class);
    private BigDecimal transferInPerGb = BigDecimal.ZERO;
    private BigDecimal transferOutPerGb = BigDecimal.ZERO;

    private Builder(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("a price table needs a name");
      }
      this.name = name;
    }

    /**
     * A class charging {@code dollars} per {@code perRequests} requests, e.g. {@code ("storage
     * put", "0.01", 1000, PER_CALL, STORAGE_PUT)} for $0.01 per 1,000 puts.
     *
     * @param dollars a decimal string, to keep the price exact
     */
    public Builder priceClass(
        String className,
        String dollars,
        long perRequests,
        Billing billing,
        Operation... operations) {
      Objects.requireNonNull(dollars, "dollars");
      return priceClass(className, new BigDecimal(dollars), perRequests, billing, operations);
    }

    /** As {@link #priceClass(String, String, long, Billing, Operation...)}. */
    public Builder priceClass(
        String className,
        BigDecimal dollars,
        long perRequests,
        Billing billing,
        Operation... operations) {
      Objects.requireNonNull(className, "className");
      Objects.requireNonNull(dollars, "dollars");
      Objects.requireNonNull(billing, "billing");
      Objects.requireNonNull(operations, "operations");
      if (className.isBlank() || className.equals(TRANSFER_IN) || className.equals(TRANSFER_OUT)) {
        throw new IllegalArgumentException("invalid price class name: \"" + className + "\"");
      }
      for (PriceClass c : classes) {
        if (c.name().equals(className)) {
          throw new IllegalArgumentException("price class defined twice: " + className);
        }
      }
      if (dollars.signum() < 0) {
        throw new IllegalArgumentException("a price must not be negative: " + dollars);
      }
      if (perRequests < 1) {
        throw new IllegalArgumentException("perRequests must be at least 1: " + perRequests);
      }
      if (operations.length == 0) {
        throw new IllegalArgumentException("price class " + className + " has no operations");
      }
      BigDecimal perRequest;
      try {
        perRequest = dollars.divide(BigDecimal.valueOf(perRequests));
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(
            "$" + dollars + " per " + perRequests + " requests has no exact decimal price", e);
      }
      PriceClass pc = new PriceClass(className, perRequest, billing);
      for (Operation op : operations) {
        Objects.requireNonNull(op, "operation");
        if (byOperation.containsKey(op)) {
          throw new IllegalArgumentException(
              op + " is already priced by class " + byOperation.get(op).name());
        }
      }
      for (Operation op : operations) {
        byOperation.put(op, pc);
      }
      classes.add(pc);
      return this;
    }

    /** A class whose requests are free (e.g. deletes). */
    public Builder free(String className, Operation... operations) {
      return priceClass(className, BigDecimal.ZERO, 1, Billing.PER_CALL, operations);
    }

    /** Dollars per GB (2^30 bytes) sent by and received by the client; zero by default. */
    public Builder transferPerGb(String inDollars, String outDollars) {
      this.transferInPerGb = nonNegative("transfer in", new BigDecimal(inDollars));
      this.transferOutPerGb = nonNegative("transfer out", new BigDecimal(outDollars));
      return this;
    }

    /** Builds the table; fails when an operation has no price class. */
    public PriceTable build() {
      Set<Operation> missing = EnumSet.allOf(Operation.class);
      missing.removeAll(byOperation.keySet());
      if (!missing.isEmpty()) {
        throw new IllegalStateException("price table " + name + " has no price for " + missing);
      }
      return new PriceTable(
          name, classes, new EnumMap<>(byOperation), transferInPerGb, transferOutPerGb);
    }

    private static BigDecimal nonNegative(String what, BigDecimal v) {
      if (v.signum() < 0) {
        throw new IllegalArgumentException(what + " price must not be negative: " + v);
      }
      return v;
    }
  }
}
