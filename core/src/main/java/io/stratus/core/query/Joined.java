package io.stratus.core.query;

/**
 * One row of a join: a record of the outer query and a record of the inner collection whose key
 * (or search key) equals the outer record's foreign key.
 *
 * @param outer the outer record
 * @param inner the inner record it joins
 * @param <O> the outer record's type
 * @param <I> the inner record's type
 */
public record Joined<O, I>(O outer, I inner) {}
