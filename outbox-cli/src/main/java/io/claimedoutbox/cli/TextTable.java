package io.claimedoutbox.cli;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table: first column left-aligned, the others right-aligned, columns padded to fit. */
final class TextTable {

  private final List<List<String>> rows = new ArrayList<>();

  TextTable(String... header) {
    rows.add(List.of(header));
  }

  TextTable row(String... cells) {
    rows.add(List.of(cells));
    return this;
  }

  String render() {
    int columns = rows.get(0).size();
    int[] widths = new int[columns];
    rows.forEach(row -> {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    });
    StringBuilder out = new StringBuilder();
    for (int r = 0; r < rows.size(); r++) {
      List<String> row = rows.get(r);
      for (int i = 0; i < columns; i++) {
        String cell = row.get(i);
        String padding = " ".repeat(widths[i] - cell.length());
        out.append(i == 0 ? cell + padding : padding + cell).append(i + 1 < columns ? "  " : "");
      }
      out.append(System.lineSeparator());
      if (r == 0) {
        for (int i = 0; i < columns; i++) {
          out.append("-".repeat(widths[i])).append(i + 1 < columns ? "  " : "");
        }
        out.append(System.lineSeparator());
      }
    }
    return out.toString();
  }
}
