package io.stratus.bench.tpcw.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.Locale;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler.LegendLayout;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * The look every chart of the harness shares (the TPC-W report's and the SIGMOD benchmark's): a
 * colour-blind-safe palette, solid and dashed lines for two measures of one series, white
 * background, legend below, y axis from zero.
 *
 * <p>Charts are rendered off-screen: loading this class sets {@code java.awt.headless} unless the
 * caller chose otherwise, so a run on a machine without a display never opens one.
 */
public final class ChartStyle {
  /** The line of a series' first measure. */
  public static final BasicStroke SOLID = new BasicStroke(2f);

  /** The line of its second measure (e.g. today's prices beside 2008's). */
  public static final BasicStroke DASHED =
      new BasicStroke(
          2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {7f, 5f}, 0f);

  private static final Color[] PALETTE = {
    new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73), new Color(0xE69F00),
    new Color(0xCC79A7), new Color(0x56B4E9), new Color(0xF0E442), new Color(0x000000),
    new Color(0x004C77), new Color(0x8E3E00), new Color(0x00694D), new Color(0x996A00)
  };

  static {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  private ChartStyle() {}

  /** The colour of series {@code i} (the palette repeats). */
  public static Color color(int i) {
    return PALETTE[Math.floorMod(i, PALETTE.length)];
  }

  /** Applies the shared look to a chart's styler. */
  public static void apply(AxesChartStyler s) {
    s.setLocale(Locale.ROOT);
    s.setChartBackgroundColor(Color.WHITE);
    s.setPlotBackgroundColor(Color.WHITE);
    s.setPlotBorderVisible(true);
    s.setPlotBorderColor(Color.GRAY);
    s.setPlotGridVerticalLinesVisible(false);
    s.setPlotGridLinesColor(new Color(0xDDDDDD));
    s.setLegendPosition(LegendPosition.OutsideS);
    s.setLegendLayout(LegendLayout.Horizontal);
    s.setLegendBorderColor(Color.WHITE);
    s.setSeriesColors(PALETTE.clone());
    s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    s.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    s.setYAxisMin(0.0);
    s.setYAxisDecimalPattern("#,##0.####");
    s.setAntiAlias(true);
  }
}
