/**
 * Client-side B-link trees over the page manager (paper 000, section 3.4). Built in the storage-engine issue.
 */
package io.stratus.btree;
