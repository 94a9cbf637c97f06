/**
 * The page manager: pages as storage items named by URI, their format, and the TTL buffer pool (paper 000, section 3.3). Built in the storage-engine issue.
 */
package io.stratus.pagemanager;
