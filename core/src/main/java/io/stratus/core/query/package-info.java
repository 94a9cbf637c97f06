/**
 * Queries over a collection's primary key or one of its secondary indexes, and foreign-key
 * equi-joins between collections: the descriptions ({@link io.stratus.core.query.Query}, {@link
 * io.stratus.core.query.Join}), their results ({@link io.stratus.core.query.QueryPage}, {@link
 * io.stratus.core.query.Joined}) and the token that resumes a query in a later transaction
 * ({@link io.stratus.core.query.Continuation}). A query runs inside a transaction, through its
 * read path: {@link io.stratus.core.Transaction#query}, {@link io.stratus.core.Transaction#join},
 * {@link io.stratus.core.TypedCollection#query}.
 */
package io.stratus.core.query;
