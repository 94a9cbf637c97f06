package io.stratus.bench.tpcw.report;

import io.stratus.bench.tpcw.harness.SweepResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one door from the runner to the reports: given a finished sweep, print the console table
 * and write every file a reader or a script might want into one directory, under stable names:
 *
 * <ul>
 *   <li>{@value #RESULTS_CSV}: one row per run and interaction or group, every setting and
 *       statistic;
 *   <li>{@value #LOAD_CSV}: one row per run, the bulk load (the papers' Table 4);
 *   <li>{@value #RESULTS_JSON}: the whole sweep as JSON;
 *   <li>{@value #REPORT_MD}: the human report, referencing the chart-*.png files next to it.
 * </ul>
 *
 * Existing files of the same names are overwritten, so a directory holds one sweep.
 */
public final class Reports {
  public static final String RESULTS_CSV = "results.csv";
  public static final String LOAD_CSV = "load.csv";
  public static final String RESULTS_JSON = "results.json";
  public static final String REPORT_MD = MarkdownReport.FILE_NAME;

  private Reports() {}

  /**
   * Prints the console table of {@code result} to {@code console}, then writes the CSV, JSON and
   * markdown files and the charts into {@code dir}, creating it if missing.
   *
   * @return the path of report.md
   * @throws IOException if a file cannot be written (the console table is printed first)
   */
  public static Path writeAll(SweepResult result, Path dir, PrintWriter console)
      throws IOException {
    printConsole(result, console);
    List<Path> written = writeFiles(result, dir);
    return written.get(written.size() - 1);
  }

  /**
   * Writes the report files into {@code dir} (created if missing) without printing anything.
   *
   * @return every file written: the CSVs, the JSON, the charts, then report.md last
   */
  public static List<Path> writeFiles(SweepResult result, Path dir) throws IOException {
    SweepView view = new SweepView(result);
    Files.createDirectories(dir);
    List<Path> written = new ArrayList<>();
    Path results = dir.resolve(RESULTS_CSV);
    CsvWriter.writeResults(view, results);
    written.add(results);
    Path load = dir.resolve(LOAD_CSV);
    CsvWriter.writeLoad(view, load);
    written.add(load);
    Path json = dir.resolve(RESULTS_JSON);
    JsonWriter.write(view, json);
    written.add(json);
    List<Path> markdown = MarkdownReport.write(view, dir);
    written.addAll(markdown.subList(1, markdown.size()));
    written.add(markdown.get(0));
    return written;
  }

  /** Prints only the console table: per-run tables, then the comparison across runs. */
  public static void printConsole(SweepResult result, PrintWriter console) {
    ConsoleTable.print(result, console);
  }
}
