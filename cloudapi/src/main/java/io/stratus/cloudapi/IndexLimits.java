package io.stratus.cloudapi;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The size and count limits of an {@link IndexService}. Every implementation MUST reject a request
 * that breaks one of them with {@link LimitExceededException} (or {@link BadRequestException} for a
 * malformed name or value) before it has any effect.
 *
 * <p>The defaults fit both services the papers and today offer: SimpleDB's 256 attributes per item
 * and 25 items per batch put, and DynamoDB's key limits. A queryable value is stored in DynamoDB
 * as the sort key of a global secondary index together with the item name ({@link
 * IndexSortKeys}), and a sort key holds at most 1,024 bytes, hence 767 bytes per value and 256 per
 * item name; attribute and domain names become index and table names, hence their alphabet. A
 * table has at most 20 global secondary indexes, hence 20 query attributes per domain; a batch
 * write holds at most 25 requests. Items are capped at 64 KiB (DynamoDB allows 400 KB) because
 * DynamoDB bills writes per KB and copies an item into every index it belongs to.
 *
 * <p>Names ({@link #checkDomain}, attribute names) use letters, digits, {@code _ . -}; item names
 * and values any characters but control characters. Sizes are UTF-8 bytes. Immutable and
 * thread-safe; build with {@link #builder()}.
 */
public final class IndexLimits {
  /** Default longest domain name: 200 characters (leaves room for a table-name prefix). */
  public static final int DEFAULT_MAX_DOMAIN_NAME_LENGTH = 200;

  /** Default longest item name: 256 bytes. */
  public static final int DEFAULT_MAX_ITEM_NAME_LENGTH = 256;

  /** Default longest attribute name: 64 characters. */
  public static final int DEFAULT_MAX_ATTRIBUTE_NAME_LENGTH = 64;

  /** Default longest attribute value: 767 bytes (with the name, a 1,024-byte sort key). */
  public static final int DEFAULT_MAX_ATTRIBUTE_VALUE_LENGTH = 767;

  /** Default most attributes per item: 256 (SimpleDB). */
  public static final int DEFAULT_MAX_ATTRIBUTES_PER_ITEM = 256;

  /** Default largest item, name plus attribute names and values: 64 KiB. */
  public static final int DEFAULT_MAX_ITEM_SIZE = 64 * 1024;

  /** Default most query attributes per domain: 20 (DynamoDB global secondary indexes). */
  public static final int DEFAULT_MAX_QUERY_ATTRIBUTES = 20;

  /** Default most items per batch: 25 (SimpleDB BatchPutAttributes, DynamoDB BatchWriteItem). */
  public static final int DEFAULT_MAX_BATCH_SIZE = 25;

  /** Default most items per query page: 1,000. */
  public static final int DEFAULT_MAX_PAGE_SIZE = 1000;

  /** Shortest domain name: 3 characters (SimpleDB domains, DynamoDB tables). */
  public static final int MIN_DOMAIN_NAME_LENGTH = 3;

  private static final IndexLimits DEFAULTS = builder().build();

  private final int maxDomainNameLength;
  private final int maxItemNameLength;
  private final int maxAttributeNameLength;
  private final int maxAttributeValueLength;
  private final int maxAttributesPerItem;
  private final int maxItemSize;
  private final int maxQueryAttributes;
  private final int maxBatchSize;
  private final int maxPageSize;

  private IndexLimits(Builder b) {
    this.maxDomainNameLength = b.maxDomainNameLength;
    this.maxItemNameLength = b.maxItemNameLength;
    this.maxAttributeNameLength = b.maxAttributeNameLength;
    this.maxAttributeValueLength = b.maxAttributeValueLength;
    this.maxAttributesPerItem = b.maxAttributesPerItem;
    this.maxItemSize = b.maxItemSize;
    this.maxQueryAttributes = b.maxQueryAttributes;
    this.maxBatchSize = b.maxBatchSize;
    this.maxPageSize = b.maxPageSize;
  }

  /** The defaults (see the class comment). */
  public static IndexLimits defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  public int maxDomainNameLength() {
    return maxDomainNameLength;
  }

  public int maxItemNameLength() {
    return maxItemNameLength;
  }

  public int maxAttributeNameLength() {
    return maxAttributeNameLength;
  }

  public int maxAttributeValueLength() {
    return maxAttributeValueLength;
  }

  public int maxAttributesPerItem() {
    return maxAttributesPerItem;
  }

  public int maxItemSize() {
    return maxItemSize;
  }

  public int maxQueryAttributes() {
    return maxQueryAttributes;
  }

  public int maxBatchSize() {
    return maxBatchSize;
  }

  public int maxPageSize() {
    return maxPageSize;
  }

  // ---- checks shared by every implementation ----

  /** Checks a domain name: 3 to {@link #maxDomainNameLength()} of {@code A-Z a-z 0-9 _ . -}. */
  public void checkDomain(String domain) {
    if (domain == null) {
      throw new BadRequestException("a domain name must not be null");
    }
    checkName("domain name", domain, MIN_DOMAIN_NAME_LENGTH, maxDomainNameLength);
  }

  /** Checks the query attributes of a new domain: valid names, at most {@link #maxQueryAttributes}. */
  public void checkQueryAttributes(Set<String> attributes) {
    if (attributes == null) {
      throw new BadRequestException("query attributes must not be null (use an empty set)");
    }
    if (attributes.size() > maxQueryAttributes) {
      throw new LimitExceededException(
          "query attributes per domain", attributes.size(), maxQueryAttributes);
    }
    for (String a : attributes) {
      checkAttributeName(a);
    }
  }

  /** Checks an item name: non-empty, no control characters, at most {@link #maxItemNameLength()}. */
  public void checkItemName(String name) {
    if (name == null || name.isEmpty()) {
      throw new BadRequestException("an item name must not be null or empty");
    }
    checkText("item name", name, maxItemNameLength);
  }

  /** Checks an item: its name, each attribute name and value, their count and total size. */
  public void checkItem(IndexItem item) {
    if (item == null) {
      throw new BadRequestException("an item must not be null");
    }
    checkItemName(item.name());
    Map<String, String> attributes = item.attributes();
    if (attributes.size() > maxAttributesPerItem) {
      throw new LimitExceededException(
          "attributes of item " + item.name(), attributes.size(), maxAttributesPerItem);
    }
    long size = utf8(item.name());
    for (Map.Entry<String, String> e : attributes.entrySet()) {
      checkAttributeName(e.getKey());
      checkValue(e.getValue());
      size += utf8(e.getKey()) + utf8(e.getValue());
    }
    if (size > maxItemSize) {
      throw new LimitExceededException("size of item " + item.name(), size, maxItemSize);
    }
  }

  /** Checks an attribute value (also a query bound): no control characters, bounded length. */
  public void checkValue(String value) {
    if (value == null) {
      throw new BadRequestException("an attribute value must not be null");
    }
    checkText("attribute value", value, maxAttributeValueLength);
  }

  /** Checks an attribute name: 1 to {@link #maxAttributeNameLength()} of {@code A-Z a-z 0-9 _ . -}. */
  public void checkAttributeName(String name) {
    if (name == null) {
      throw new BadRequestException("an attribute name must not be null");
    }
    checkName("attribute name", name, 1, maxAttributeNameLength);
  }

  /**
   * Checks a batch of items: 1 to {@link #maxBatchSize()} of them, each valid, no name twice. All
   * are checked before any is written, so a rejected batch has no effect.
   */
  public void checkItemBatch(List<IndexItem> items) {
    checkBatchSize(items);
    Set<String> names = new HashSet<>();
    for (IndexItem item : items) {
      checkItem(item);
      if (!names.add(item.name())) {
        throw new BadRequestException("item " + item.name() + " is twice in one batch");
      }
    }
  }

  /** Checks a batch of item names: 1 to {@link #maxBatchSize()}, each valid, none twice. */
  public void checkNameBatch(List<String> names) {
    checkBatchSize(names);
    Set<String> seen = new HashSet<>();
    for (String name : names) {
      checkItemName(name);
      if (!seen.add(name)) {
        throw new BadRequestException("item " + name + " is twice in one batch");
      }
    }
  }

  /** Checks a query: its attribute name, bound values, limit and token. */
  public void checkQuery(IndexQuery query) {
    if (query == null) {
      throw new BadRequestException("a query must not be null");
    }
    checkAttributeName(query.attribute());
    query.lower().ifPresent(b -> checkValue(b.value()));
    query.upper().ifPresent(b -> checkValue(b.value()));
    if (query.limit() < 1) {
      throw new BadRequestException("a query limit must be at least 1, got " + query.limit());
    }
    if (query.limit() > maxPageSize) {
      throw new LimitExceededException("query limit", query.limit(), maxPageSize);
    }
    query.continuation().ifPresent(IndexSortKeys::fromToken);
  }

  private void checkBatchSize(Collection<?> entries) {
    if (entries == null) {
      throw new BadRequestException("a batch must not be null");
    }
    if (entries.isEmpty()) {
      throw new BadRequestException("a batch needs at least one entry");
    }
    if (entries.size() > maxBatchSize) {
      throw new LimitExceededException("batch size", entries.size(), maxBatchSize);
    }
  }

  private static void checkName(String what, String name, int min, int max) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '.'
              || c == '-';
      if (!ok) {
        throw new BadRequestException(
            "a "
                + what
                + " may hold only letters, digits, '_', '.' and '-': \""
                + printable(name)
                + "\"");
      }
    }
    if (name.length() < min) {
      throw new BadRequestException(
          "a " + what + " needs at least " + min + " characters: \"" + name + "\"");
    }
    if (name.length() > max) {
      throw new LimitExceededException(what + " length", name.length(), max);
    }
  }

  private static void checkText(String what, String text, int maxBytes) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.isISOControl(text.charAt(i))) {
        throw new BadRequestException(
            "an " + what + " must not contain control characters: \"" + printable(text) + "\"");
      }
    }
    long bytes = utf8(text);
    if (bytes > maxBytes) {
      throw new LimitExceededException(what + " length", bytes, maxBytes);
    }
  }

  private static long utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static String printable(String s) {
    String p = s.replaceAll("\\p{Cntrl}", "?");
    return p.length() > 80 ? p.substring(0, 80) + "..." : p;
  }

  @Override
  public String toString() {
    return "IndexLimits{maxDomainNameLength="
        + maxDomainNameLength
        + ", maxItemNameLength="
        + maxItemNameLength
        + ", maxAttributeNameLength="
        + maxAttributeNameLength
        + ", maxAttributeValueLength="
        + maxAttributeValueLength
        + ", maxAttributesPerItem="
        + maxAttributesPerItem
        + ", maxItemSize="
        + maxItemSize
        + ", maxQueryAttributes="
        + maxQueryAttributes
        + ", maxBatchSize="
        + maxBatchSize
        + ", maxPageSize="
        + maxPageSize
        + '}';
  }

  /** Validates each setting as it is given. */
  public static final class Builder {
    private int maxDomainNameLength = DEFAULT_MAX_DOMAIN_NAME_LENGTH;
    private int maxItemNameLength = DEFAULT_MAX_ITEM_NAME_LENGTH;
    private int maxAttributeNameLength = DEFAULT_MAX_ATTRIBUTE_NAME_LENGTH;
    private int maxAttributeValueLength = DEFAULT_MAX_ATTRIBUTE_VALUE_LENGTH;
    private int maxAttributesPerItem = DEFAULT_MAX_ATTRIBUTES_PER_ITEM;
    private int maxItemSize = DEFAULT_MAX_ITEM_SIZE;
    private int maxQueryAttributes = DEFAULT_MAX_QUERY_ATTRIBUTES;
    private int maxBatchSize = DEFAULT_MAX_BATCH_SIZE;
    private int maxPageSize = DEFAULT_MAX_PAGE_SIZE;

    private Builder() {}

    public Builder maxDomainNameLength(int chars) {
      if (chars < MIN_DOMAIN_NAME_LENGTH) {
        throw new IllegalArgumentException(
            "maxDomainNameLength must be at least " + MIN_DOMAIN_NAME_LENGTH + ", got " + chars);
      }
      this.maxDomainNameLength = chars;
      return this;
    }

    public Builder maxItemNameLength(int bytes) {
      this.maxItemNameLength = positive("maxItemNameLength", bytes);
      return this;
    }

    public Builder maxAttributeNameLength(int chars) {
      this.maxAttributeNameLength = positive("maxAttributeNameLength", chars);
      return this;
    }

    public Builder maxAttributeValueLength(int bytes) {
      this.maxAttributeValueLength = positive("maxAttributeValueLength", bytes);
      return this;
    }

    public Builder maxAttributesPerItem(int count) {
      this.maxAttributesPerItem = positive("maxAttributesPerItem", count);
      return this;
    }

    public Builder maxItemSize(int bytes) {
      this.maxItemSize = positive("maxItemSize", bytes);
      return this;
    }

    public Builder maxQueryAttributes(int count) {
      this.maxQueryAttributes = positive("maxQueryAttributes", count);
      return this;
    }

    public Builder maxBatchSize(int items) {
      this.maxBatchSize = positive("maxBatchSize", items);
      return this;
    }

    public Builder maxPageSize(int items) {
      this.maxPageSize = positive("maxPageSize", items);
      return this;
    }

    public IndexLimits build() {
      return new IndexLimits(this);
    }

    private static int positive(String name, int value) {
      if (value <= 0) {
        throw new IllegalArgumentException(name + " must be positive, got " + value);
      }
      return value;
    }
  }
}
