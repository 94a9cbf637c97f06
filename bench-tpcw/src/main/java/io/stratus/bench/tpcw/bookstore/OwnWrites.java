package io.stratus.bench.tpcw.bookstore;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * What one user session committed to the data only it writes: its shopping cart (each change a
 * new cart version, and the lines all its changes so far leave) and its orders. Only the session
 * changes its cart, and it knows which orders it placed, so when it reads them back it can tell a
 * current read from one that shows an older version or misses the write altogether, and by how
 * long: the time since the commit of the first version the read did not show.
 *
 * <p>The lines a version leaves are the session's writes applied in commit order, not what the
 * session saw when it wrote: a line written by an earlier transaction that was not visible yet to
 * a later one still counts, as it will be in the cart once applied.
 *
 * <p>Remembers the last {@link #HISTORY} cart versions and orders; a read older than all of them
 * is measured against the oldest remembered, so staleness can only be underestimated.
 *
 * <p>Part of a {@link BookstoreSession}: used by one thread at a time, no synchronisation. Changed
 * only after a commit, with the commit's time.
 */
final class OwnWrites {
  static final int HISTORY = 16;

  /**
   * The verdict on one read back of the session's own data: whether there was anything of the
   * session's to compare with ({@code checked}), whether the read showed less than the session
   * had committed ({@code stale}), and since when: the time from the commit of the first version
   * it missed to the read's start (0 when that was the same millisecond, or when current).
   */
  record OwnRead(boolean checked, boolean stale, long stalenessMillis) {
    /** Nothing of the session's to compare with. */
    static final OwnRead UNCHECKED = new OwnRead(false, false, 0);

    /** The read showed everything the session had committed. */
    static final OwnRead CURRENT = new OwnRead(true, false, 0);

    static OwnRead staleSince(long commitMillis, long readStartMillis) {
      return new OwnRead(true, true, Math.max(0, readStartMillis - commitMillis));
    }
  }

  /** A cart version the session committed: when, and the lines its writes so far leave. */
  private record CartVersion(long version, long commitMillis, Map<Long, Integer> lines) {}

  /** An order the session placed for a customer, and when it committed. */
  private record Order(long orderId, long customerId, long commitMillis) {}

  private final ArrayDeque<CartVersion> cart = new ArrayDeque<>();
  private final ArrayDeque<Order> orders = new ArrayDeque<>();
  private final Map<Long, Integer> lines = new HashMap<>();

  /** Forgets everything: a new user session has a new cart and places its own orders. */
  void clear() {
    cart.clear();
    orders.clear();
    lines.clear();
  }

  /** The version the next cart write gets: one above the newest committed, 0 for a new cart. */
  long nextCartVersion() {
    return cart.isEmpty() ? 0 : cart.peekLast().version() + 1;
  }

  /**
   * Records that cart {@code version} committed at {@code commitMillis}, setting the lines in
   * {@code lineChanges} (item id to quantity; 0 deleted the line).
   */
  void cartCommitted(long version, Map<Long, Integer> lineChanges, long commitMillis) {
    for (Map.Entry<Long, Integer> c : lineChanges.entrySet()) {
      if (c.getValue() == 0) {
        lines.remove(c.getKey());
      } else {
        lines.put(c.getKey(), c.getValue());
      }
    }
    cart.addLast(new CartVersion(version, commitMillis, Map.copyOf(lines)));
    while (cart.size() > HISTORY) {
      cart.removeFirst();
    }
  }

  /**
   * Judges a read of the session's cart that began at {@code readStartMillis} and saw version
   * {@code seenVersion} (-1: the cart was not visible) with {@code seenLines}: unchecked when the
   * session has committed no cart; current when it showed the newest version and its lines (or a
   * newer one, written by an attempt whose commit outcome was unknown); else
   * stale since the commit of the first version it missed (the newest one's, when only that
   * version's lines were missing).
   */
  OwnRead cartRead(long seenVersion, Map<Long, Integer> seenLines, long readStartMillis) {
    if (cart.isEmpty()) {
      return OwnRead.UNCHECKED;
    }
    CartVersion newest = cart.peekLast();
    if (seenVersion > newest.version()) {
      return OwnRead.CURRENT; // a write whose commit outcome was unknown did apply
    }
    if (seenVersion == newest.version()) {
      return newest.lines().equals(seenLines)
          ? OwnRead.CURRENT
          : OwnRead.staleSince(newest.commitMillis(), readStartMillis);
    }
    for (CartVersion v : cart) { // oldest first: the first version newer than the one seen
      if (v.version() > seenVersion) {
        return OwnRead.staleSince(v.commitMillis(), readStartMillis);
      }
    }
    throw new IllegalStateException("unreachable: the newest version is newer than the one seen");
  }

  /** Records that the session placed order {@code orderId} for {@code customerId}. */
  void orderCommitted(long orderId, long customerId, long commitMillis) {
    orders.addLast(new Order(orderId, customerId, commitMillis));
    while (orders.size() > HISTORY) {
      orders.removeFirst();
    }
  }

  /**
   * Judges a read of {@code customerId}'s latest order that began at {@code readStartMillis} and
   * showed order {@code shownOrderId} (-1: none): unchecked when this session placed no order for
   * the customer; current when the order shown is at least as new as the session's newest; else
   * stale since the commit of the session's first order the read did not show.
   */
  OwnRead latestOrderRead(long customerId, long shownOrderId, long readStartMillis) {
    OwnRead verdict = OwnRead.UNCHECKED;
    for (Order o : orders) { // oldest first; a session's order ids grow with time
      if (o.customerId() != customerId) {
        continue;
      }
      if (o.orderId() > shownOrderId) {
        return OwnRead.staleSince(o.commitMillis(), readStartMillis);
      }
      verdict = OwnRead.CURRENT;
    }
    return verdict;
  }
}
