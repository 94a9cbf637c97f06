/**
 * The naive protocol ({@link io.stratus.protocols.naive.NaiveProtocol}): commits put their pages
 * directly; kept for comparison, it loses concurrent updates by design.
 */
package io.stratus.protocols.naive;
