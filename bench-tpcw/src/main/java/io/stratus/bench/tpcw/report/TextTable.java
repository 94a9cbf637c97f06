package io.stratus.bench.tpcw.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A table built once and rendered twice: fixed-width for the console and as a GitHub markdown
 * table for report.md, so both show the same columns and numbers. Rows can be separated by rules
 * (drawn on the console, dropped in markdown); cells longer than a column's cap are shortened on
 * the console only.
 */
final class TextTable {
  /** Column alignment: labels left, numbers right. */
  enum Align {
    LEFT,
    RIGHT
  }

  private record Column(String header, Align align, int maxWidth) {}

  private static final String RULE = "\u0000rule";
  private static final int GAP = 2;

  private final List<Column> columns = new ArrayList<>();
  private final List<String[]> rows = new ArrayList<>();

  /** Adds a left-aligned column whose console cells are cut to {@code maxWidth} characters. */
  TextTable left(String header, int maxWidth) {
    columns.add(new Column(header, Align.LEFT, maxWidth));
    return this;
  }

  /** Adds a right-aligned (numeric) column. */
  TextTable right(String header) {
    columns.add(new Column(header, Align.RIGHT, Integer.MAX_VALUE));
    return this;
  }

  /** Adds a row; it must have one cell per column (null shows as empty). */
  TextTable row(String... cells) {
    if (cells.length != columns.size()) {
      throw new IllegalArgumentException(
          "row has " + cells.length + " cells, table has " + columns.size() + " columns");
    }
    rows.add(Arrays.copyOf(cells, cells.length));
    return this;
  }

  /** Draws a horizontal rule before the next row (console only). */
  TextTable rule() {
    rows.add(new String[] {RULE});
    return this;
  }

  int columnCount() {
    return columns.size();
  }

  /** The console rendering: one string per line, each prefixed with {@code indent}. */
  List<String> fixedWidth(String indent) {
    int[] widths = new int[columns.size()];
    for (int c = 0; c < columns.size(); c++) {
      widths[c] = Math.min(columns.get(c).header().length(), columns.get(c).maxWidth());
    }
    for (String[] row : rows) {
      if (isRule(row)) {
        continue;
      }
      for (int c = 0; c < columns.size(); c++) {
        widths[c] = Math.max(widths[c], Math.min(len(row[c]), columns.get(c).maxWidth()));
      }
    }
    int total = (columns.size() - 1) * GAP;
    for (int w : widths) {
      total += w;
    }
    List<String> lines = new ArrayList<>();
    lines.add(indent + line(headers(), widths));
    lines.add(indent + "-".repeat(total));
    for (String[] row : rows) {
      lines.add(indent + (isRule(row) ? "-".repeat(total) : line(row, widths)));
    }
    return lines;
  }

  /** The markdown rendering, one string per line; pipes in cells are escaped. */
  List<String> markdown() {
    List<String> lines = new ArrayList<>();
    StringBuilder header = new StringBuilder("|");
    StringBuilder align = new StringBuilder("|");
    for (Column c : columns) {
      header.append(' ').append(escapeMarkdown(c.header())).append(" |");
      align.append(c.align() == Align.RIGHT ? " ---: |" : " :--- |");
    }
    lines.add(header.toString());
    lines.add(align.toString());
    for (String[] row : rows) {
      if (isRule(row)) {
        continue;
      }
      StringBuilder b = new StringBuilder("|");
      for (String cell : row) {
        b.append(' ').append(escapeMarkdown(cell == null ? "" : cell)).append(" |");
      }
      lines.add(b.toString());
    }
    return lines;
  }

  /** Escapes what would break a markdown table cell or be read as markup. */
  static String escapeMarkdown(String text) {
    StringBuilder b = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      switch (ch) {
        case '|', '\\', '*', '_', '`', '[', ']', '<', '>', '$' -> b.append('\\').append(ch);
        case '\n', '\r' -> b.append(' ');
        default -> b.append(ch);
      }
    }
    return b.toString();
  }

  private String[] headers() {
    return columns.stream().map(Column::header).toArray(String[]::new);
  }

  private String line(String[] cells, int[] widths) {
    StringBuilder b = new StringBuilder();
    for (int c = 0; c < cells.length; c++) {
      String cell = fit(cells[c] == null ? "" : cells[c], widths[c]);
      if (c > 0) {
        b.append(" ".repeat(GAP));
      }
      boolean last = c == cells.length - 1;
      if (columns.get(c).align() == Align.RIGHT) {
        b.append(" ".repeat(widths[c] - cell.length())).append(cell);
      } else {
        b.append(cell);
        if (!last) {
          b.append(" ".repeat(widths[c] - cell.length()));
        }
      }
    }
    return b.toString();
  }

  private static String fit(String cell, int width) {
    String flat = cell.replace('\n', ' ').replace('\r', ' ');
    if (flat.length() <= width) {
      return flat;
    }
    return width <= 1 ? flat.substring(0, width) : flat.substring(0, width - 1) + "~";
  }

  private static int len(String s) {
    return s == null ? 0 : s.length();
  }

  private static boolean isRule(String[] row) {
    return row.length == 1 && row[0] == RULE;
  }
}
