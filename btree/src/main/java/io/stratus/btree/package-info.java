/**
 * Client-side B-link trees over the page manager (paper 000, section 3.4): {@link
 * io.stratus.btree.BLinkTree} (index-organized collections and secondary indexes, lock-free
 * readers, checkpoint batches), {@link io.stratus.btree.KeyRange} and {@link
 * io.stratus.btree.TreeCursor} for scans, {@link io.stratus.btree.SecondaryKeys} for
 * (search key, record key) entries, and {@link io.stratus.btree.BulkLoader} for bottom-up loads.
 */
package io.stratus.btree;
