package io.stratus.bench.tpcw.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A strict test-only RFC 4180 reader: records end with CRLF, quoted fields may contain commas,
 * doubled quotes and line breaks; a quote inside an unquoted field, or text after a closing
 * quote, is an error. Lets the tests check the CSV a spreadsheet would read.
 */
final class MiniCsv {
  private MiniCsv() {}

  static List<List<String>> parse(String text) {
    List<List<String>> records = new ArrayList<>();
    List<String> record = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    int i = 0;
    boolean fieldStarted = false;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (!fieldStarted && c == '"') {
        i++;
        while (true) {
          if (i >= text.length()) {
            throw new IllegalArgumentException("unterminated quoted field");
          }
          char q = text.charAt(i);
          if (q == '"') {
            if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
              field.append('"');
              i += 2;
              continue;
            }
            i++;
            break;
          }
          field.append(q);
          i++;
        }
        fieldStarted = true;
        if (i < text.length() && text.charAt(i) != ',' && text.charAt(i) != '\r') {
          throw new IllegalArgumentException("text after closing quote at " + i);
        }
        continue;
      }
      if (c == ',') {
        record.add(field.toString());
        field.setLength(0);
        fieldStarted = false;
        i++;
      } else if (c == '\r') {
        if (i + 1 >= text.length() || text.charAt(i + 1) != '\n') {
          throw new IllegalArgumentException("bare CR at " + i);
        }
        record.add(field.toString());
        records.add(record);
        record = new ArrayList<>();
        field.setLength(0);
        fieldStarted = false;
        i += 2;
      } else if (c == '"' || c == '\n') {
        throw new IllegalArgumentException("quote or LF in unquoted field at " + i);
      } else {
        field.append(c);
        fieldStarted = true;
        i++;
      }
    }
    if (fieldStarted || !record.isEmpty()) {
      throw new IllegalArgumentException("last record not terminated by CRLF");
    }
    return records;
  }
}
