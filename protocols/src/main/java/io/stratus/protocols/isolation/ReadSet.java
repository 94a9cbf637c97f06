package io.stratus.protocols.isolation;

import io.stratus.btree.KeyRange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The key ranges a transaction read (every point read, scan and index probe, as the record manager
 * reports them), as far as its {@link Validation} looks at them.
 *
 * <p>Why: only a validation of reads needs them, and a transaction reads far more than it writes;
 * one that is checked by its writes alone or holds locks on what it reads keeps nothing ({@link
 * #IGNORED}). Not thread-safe: one transaction's.
 */
interface ReadSet {
  /** Keeps nothing and contains nothing. */
  ReadSet IGNORED =
      new ReadSet() {
        @Override
        public void add(String root, KeyRange range) {}

        @Override
        public void addKey(String root, byte[] key) {}

        @Override
        public Set<String> roots() {
          return Set.of();
        }

        @Override
        public boolean contains(String root, byte[] key) {
          return false;
        }
      };

  /** A read set that keeps every range. */
  static ReadSet recording() {
    return new ReadSet() {
      /** Root to the key ranges read in it. */
      private final Map<String, List<KeyRange>> ranges = new HashMap<>();

      @Override
      public void add(String root, KeyRange range) {
        ranges.computeIfAbsent(root, r -> new ArrayList<>()).add(range);
      }

      @Override
      public Set<String> roots() {
        return ranges.keySet();
      }

      @Override
      public boolean contains(String root, byte[] key) {
        for (KeyRange r : ranges.getOrDefault(root, List.of())) {
          if (r.contains(key)) {
            return true;
          }
        }
        return false;
      }
    };
  }

  /** The transaction read the keys of {@code range} in the tree {@code root}. */
  void add(String root, KeyRange range);

  /** Adds the read of {@code key} alone (copied when kept). */
  default void addKey(String root, byte[] key) {
    add(root, KeyRange.singleton(key));
  }

  /** The trees read in. */
  Set<String> roots();

  /** Whether {@code key} of {@code root} lies in a range read. */
  boolean contains(String root, byte[] key);
}
