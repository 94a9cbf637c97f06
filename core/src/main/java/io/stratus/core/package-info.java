/**
 * The record manager: database handle, catalog, collections, secondary indexes and transactions (paper 000, section 3.2).
 */
package io.stratus.core;
