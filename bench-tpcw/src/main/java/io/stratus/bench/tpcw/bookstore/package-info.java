/**
 * The TPC-W bookstore on Stratus: the ten tables as collections with binary row codecs and
 * secondary indexes ({@link io.stratus.bench.tpcw.bookstore.BookstoreSchema}), the initial
 * population ({@link io.stratus.bench.tpcw.bookstore.DataGenerator} at a {@link
 * io.stratus.bench.tpcw.bookstore.Scale}), and the fourteen web interactions ({@link
 * io.stratus.bench.tpcw.bookstore.StratusBookstore}, the emulator's {@code Bookstore}).
 *
 * <p>Use from the harness, in every process: open the database, {@code
 * BookstoreSchema.install(db)}; in the loading process, {@code new DataGenerator(db, scale, seed,
 * clock).load(progress)}; then {@code new StratusBookstore(db, scale, clock, seed)} and let the
 * emulator call {@code newSession} and {@code execute}.
 */
package io.stratus.bench.tpcw.bookstore;
