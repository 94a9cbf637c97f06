package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.IndexItem;
import io.stratus.cloudapi.IndexLimits;
import io.stratus.cloudapi.IndexPage;
import io.stratus.cloudapi.IndexQuery;
import io.stratus.cloudapi.IndexService;
import io.stratus.cloudapi.IndexSortKeys;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.ServiceUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The in-process index service: SimpleDB or DynamoDB as the protocols see them, held in this JVM.
 *
 * <p>Each domain keeps its items by name (what {@link #get} reads, always the latest state) and,
 * per query attribute, a sorted map from sort key ({@link IndexSortKeys}) to item, which queries
 * walk. Every change is a record (time, name, item before, item after). With a query lag (an
 * eventually consistent {@link IndexBehavior}) the changes wait in a queue and are applied to the
 * sorted maps, in order, once the lag has passed on the injected clock: a query at time t sees
 * exactly the writes completed by t - lag, a consistent prefix, as a lagging replica would. With
 * no lag they are applied at once.
 *
 * <p>Thread-safe: each domain is guarded by its own monitor; the map of domains is concurrent.
 * Every call completes its future before it returns, on the caller's thread; bad input fails the
 * future.
 */
final class InProcessIndex implements IndexService {
  private final Clock clock;
  private final IndexLimits limits;
  private final IndexBehavior behavior;
  private final ConcurrentHashMap<String, Domain> domains = new ConcurrentHashMap<>();

  InProcessIndex(Clock clock, IndexLimits limits, IndexBehavior behavior) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.behavior = Objects.requireNonNull(behavior, "behavior");
  }

  @Override
  public CompletableFuture<Void> createDomain(String domain, Set<String> queryAttributes) {
    return call(
        () -> {
          limits.checkDomain(domain);
          limits.checkQueryAttributes(queryAttributes);
          Set<String> attributes = Set.copyOf(queryAttributes);
          domains.compute(
              domain,
              (name, existing) -> {
                if (existing == null) {
                  return new Domain(attributes);
                }
                if (!existing.queryAttributes.equals(attributes)) {
                  throw new BadRequestException(
                      "domain "
                          + domain
                          + " exists with query attributes "
                          + new TreeSet<>(existing.queryAttributes)
                          + ", not "
                          + attributes
                          + "; delete it first or use another name");
                }
                return existing;
              });
          return null;
        });
  }

  @Override
  public CompletableFuture<Void> deleteDomain(String domain) {
    return call(
        () -> {
          limits.checkDomain(domain);
          domains.remove(domain);
          return null;
        });
  }

  @Override
  public CompletableFuture<Void> put(String domain, IndexItem item) {
    return call(
        () -> {
          limits.checkDomain(domain);
          limits.checkItem(item);
          Domain d = existing(domain);
          synchronized (d) {
            Instant now = clock.instant();
            d.admit(now, 1);
            d.write(item.name(), item, now);
          }
          return null;
        });
  }

  @Override
  public CompletableFuture<Void> putBatch(String domain, List<IndexItem> items) {
    return call(
        () -> {
          limits.checkDomain(domain);
          limits.checkItemBatch(items);
          Domain d = existing(domain);
          synchronized (d) {
            Instant now = clock.instant();
            d.admit(now, items.size());
            for (IndexItem item : items) {
              d.write(item.name(), item, now);
            }
          }
          return null;
        });
  }

  @Override
  public CompletableFuture<Optional<IndexItem>> get(String domain, String itemName) {
    return call(
        () -> {
          limits.checkDomain(domain);
          limits.checkItemName(itemName);
          Domain d = existing(domain);
          synchronized (d) {
            return Optional.ofNullable(d.items.get(itemName));
          }
        });
  }

  @Override
  public CompletableFuture<Void> delete(String domain, String itemName) {
    return call(
        () -> {
          limits.checkDomain(domain);
          limits.checkItemName(itemName);
          Domain d = existing(domain);
          synchronized (d) {
            Instant now = clock.instant();
            d.admit(now, 1);
            d.write(itemName, null, now);
          }
          return null;
        });
  }

  @Override
  public CompletableFuture<Void> deleteBatch(String domain, List<String> itemNames) {
    return call(
        () -> {
          limits.checkDomain(domain);
          limits.checkNameBatch(itemNames);
          Domain d = existing(domain);
          synchronized (d) {
            Instant now = clock.instant();
            d.admit(now, itemNames.size());
            for (String name : itemNames) {
              d.write(name, null, now);
            }
          }
          return null;
        });
  }

  @Override
  public CompletableFuture<IndexPage> query(String domain, IndexQuery query) {
    return call(
        () -> {
          limits.checkDomain(domain);
          limits.checkQuery(query);
          Domain d = existing(domain);
          if (!d.queryAttributes.contains(query.attribute())) {
            throw notQueryable(domain, query.attribute(), d.queryAttributes);
          }
          if (IndexSortKeys.isEmptyRange(query)) {
            return new IndexPage(List.of(), Optional.empty());
          }
          synchronized (d) {
            d.catchUp(clock.instant());
            return page(d.entriesOf(query.attribute()), query);
          }
        });
  }

  @Override
  public boolean isStronglyConsistent() {
    return behavior.isStronglyConsistent();
  }

  @Override
  public IndexLimits limits() {
    return limits;
  }

  /** Domains held now, for tests. */
  int domainCount() {
    return domains.size();
  }

  // ---- internals ----

  private static IndexPage page(NavigableMap<String, IndexItem> entries, IndexQuery query) {
    NavigableMap<String, IndexItem> range = entries;
    Optional<String> lo = IndexSortKeys.lowest(query);
    Optional<String> hi = IndexSortKeys.highest(query);
    if (lo.isPresent()) {
      range = range.tailMap(lo.get(), true);
    }
    if (hi.isPresent()) {
      range = range.headMap(hi.get(), true);
    }
    boolean ascending = query.order() == IndexQuery.Order.ASCENDING;
    if (query.continuation().isPresent()) {
      String after = IndexSortKeys.fromToken(query.continuation().get());
      range = ascending ? range.tailMap(after, false) : range.headMap(after, false);
    }
    if (!ascending) {
      range = range.descendingMap();
    }
    List<IndexItem> items = new ArrayList<>(Math.min(query.limit(), range.size()));
    @Nullable String last = null;
    Iterator<Map.Entry<String, IndexItem>> it = range.entrySet().iterator();
    while (it.hasNext() && items.size() < query.limit()) {
      Map.Entry<String, IndexItem> e = it.next();
      items.add(e.getValue());
      last = e.getKey();
    }
    return new IndexPage(
        items,
        it.hasNext() && last != null ? Optional.of(IndexSortKeys.token(last)) : Optional.empty());
  }

  private Domain existing(String domain) {
    Domain d = domains.get(domain);
    if (d == null) {
      throw new NotFoundException(
          "index domain " + domain + " does not exist; create it with createDomain first");
    }
    return d;
  }

  static BadRequestException notQueryable(String domain, String attribute, Set<String> declared) {
    return new BadRequestException(
        "attribute "
            + attribute
            + " of domain "
            + domain
            + " is not queryable (the domain was created with query attributes "
            + new TreeSet<>(declared)
            + "); create the domain with it to query it");
  }

  /** Runs a call on the caller's thread; a rejected request becomes a failed future. */
  private static <T> CompletableFuture<T> call(Supplier<T> body) {
    try {
      return CompletableFuture.completedFuture(body.get());
    } catch (CloudException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** One write as a lagging replica applies it. */
  private record Change(
      Instant time, String name, @Nullable IndexItem before, @Nullable IndexItem after) {}

  /** One domain; every mutable field is guarded by its monitor. */
  private final class Domain {
    final Set<String> queryAttributes;
    final Map<String, IndexItem> items = new HashMap<>();

    /** Query attribute to sort key to item: what queries see. */
    final Map<String, NavigableMap<String, IndexItem>> visible = new HashMap<>();

    /** Changes not yet visible to queries, oldest first (only with a query lag). */
    final ArrayDeque<Change> pending = new ArrayDeque<>();

    long throttleSecond = Long.MIN_VALUE;
    int writesThisSecond;

    Domain(Set<String> queryAttributes) {
      this.queryAttributes = queryAttributes;
      for (String a : queryAttributes) {
        visible.put(a, new TreeMap<>(IndexSortKeys.UTF8_ORDER));
      }
    }

    /** Counts {@code n} written items against the throttle, or refuses them all. */
    void admit(Instant now, int n) {
      int rate = behavior.writesPerSecond();
      if (rate == 0) {
        return;
      }
      long second = now.getEpochSecond();
      if (second != throttleSecond) {
        throttleSecond = second;
        writesThisSecond = 0;
      }
      // A fresh second admits any one request, so a batch larger than the rate still gets in.
      if (writesThisSecond > 0 && writesThisSecond + n > rate) {
        Duration wait = Duration.between(now, Instant.ofEpochSecond(second + 1));
        throw new ServiceUnavailableException(
            "the index service throttles this domain at "
                + rate
                + " written items per second; retry after "
                + wait.toMillis()
                + " ms",
            wait);
      }
      writesThisSecond += n;
    }

    /** Puts {@code after} as item {@code name}, or deletes it when {@code after} is null. */
    void write(String name, @Nullable IndexItem after, Instant now) {
      IndexItem before = after == null ? items.remove(name) : items.put(name, after);
      Change c = new Change(now, name, before, after);
      if (behavior.isStronglyConsistent()) {
        apply(c);
      } else {
        catchUp(now);
        pending.addLast(c);
      }
    }

    /** Makes every change completed by {@code now - lag} visible to queries, in order. */
    void catchUp(Instant now) {
      Instant horizon = now.minus(behavior.queryLag());
      Change c;
      while ((c = pending.peekFirst()) != null && !c.time().isAfter(horizon)) {
        apply(pending.pollFirst());
      }
    }

    private void apply(Change c) {
      IndexItem before = c.before();
      IndexItem after = c.after();
      for (Map.Entry<String, NavigableMap<String, IndexItem>> e : visible.entrySet()) {
        String a = e.getKey();
        NavigableMap<String, IndexItem> m = e.getValue();
        String old = before == null ? null : before.get(a);
        if (old != null) {
          m.remove(IndexSortKeys.sortKey(old, c.name()));
        }
        String now = after == null ? null : after.get(a);
        if (now != null) {
          m.put(IndexSortKeys.sortKey(now, c.name()), after);
        }
      }
    }

    /** The entries queries see of {@code attribute}, one of the {@link #queryAttributes}. */
    NavigableMap<String, IndexItem> entriesOf(String attribute) {
      NavigableMap<String, IndexItem> m = visible.get(attribute);
      if (m == null) {
        // The constructor made a map for each query attribute; callers check the attribute.
        throw new IllegalStateException("not a query attribute: " + attribute);
      }
      return m;
    }
  }
}
