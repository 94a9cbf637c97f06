package io.stratus.protocols.isolation;

import io.stratus.btree.KeyRange;
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

  /**
   * A read set that keeps what it is given, as compactly as its answers allow ({@link
   * RecordedReads}).
   */
  static ReadSet recording() {
    return new RecordedReads();
  }

  /** The transaction read the keys of {@code range} in the tree {@code root}. */
  void add(String root, KeyRange range);

  /** Adds the read of {@code key} alone (copied when kept). */
  void addKey(String root, byte[] key);

  /** The trees read in. */
  Set<String> roots();

  /** Whether {@code key} of {@code root} lies in a range read. */
  boolean contains(String root, byte[] key);
}
