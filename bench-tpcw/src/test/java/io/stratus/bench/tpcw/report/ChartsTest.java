package io.stratus.bench.tpcw.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

/**
 * The per-interaction bar charts give the samples behind each bar, and a bar of few samples does
 * not set the scale: a one-sample Admin Confirm of 3,785 ms once flattened every other bar of a
 * run's chart.
 */
class ChartsTest {

  @Test
  void aBarOfOneSampleDoesNotStretchTheAxisAndIsNamedInItsLabel() {
    CategoryChart chart = responseTimes(Fixtures.withOutlier());

    // The tallest bar resting on enough samples is naive's updates at 400 ms: the axis ends at
    // 1.25 times that, and basic's single Admin Confirm is drawn up to the cut.
    assertThat(chart.getStyler().getYAxisMax()).isEqualTo(500.0);
    assertThat(chart.getTitle()).contains("axis cut at 500 ms");
    List<Object> labels = categories(chart, "basic");
    int admin = labels.indexOf("Admin Confirm (n=1-100; off scale: basic 3785 ms)");
    assertThat(admin).as("labels %s", labels).isNotNegative();
    assertThat(values(chart, "basic").get(admin)).isEqualTo(500.0);
    // Every other bar keeps its height, and every label gives its samples.
    assertThat(values(chart, "naive").get(admin)).isEqualTo(400.0);
    assertThat(values(chart, "basic").get(labels.indexOf("Shopping Cart (n=100)")))
        .isEqualTo(120.0);
    assertThat(labels).contains("Home (n=100)", "total (n=1015)");
  }

  @Test
  void withoutAnOutlierTheAxisIsNotCut() {
    CategoryChart chart = responseTimes(Fixtures.protocolSweep());

    assertThat(chart.getStyler().getYAxisMax()).isNull();
    assertThat(chart.getTitle()).doesNotContain("cut");
    // Admin Confirm ran twice under each protocol: too few to set a scale, but not cut either,
    // since it is no taller than the bars of many samples.
    assertThat(categories(chart, "naive")).contains("Admin Confirm (n=2)", "Home (n=161)");
  }

  @Test
  void aTallBarOfManySamplesIsAResultAndIsNeverCut() {
    BarScale tall =
        BarScale.of(
            List.of(
                new BarScale.Bar(3153, 400), new BarScale.Bar(100, 500), new BarScale.Bar(1, 5)));
    BarScale thinOnly = BarScale.of(List.of(new BarScale.Bar(3785, 1), new BarScale.Bar(2, 3)));
    BarScale outlier = BarScale.of(List.of(new BarScale.Bar(3785, 1), new BarScale.Bar(100, 20)));

    assertThat(tall.cuts()).isFalse();
    assertThat(tall.drawn(3153)).isEqualTo(3153);
    assertThat(thinOnly.cuts()).as("no bar has enough samples to set a scale").isFalse();
    assertThat(outlier.cut()).isEqualTo(125.0);
    assertThat(outlier.isCut(3785)).isTrue();
    assertThat(outlier.isCut(125)).isFalse();
    assertThat(outlier.drawn(3785)).isEqualTo(125.0);
  }

  /**
   * Bars that span more than a hundred times (reads of a few microseconds beside updates of
   * hundreds of milliseconds) are drawn on a logarithmic axis, so the short ones show; a bar of
   * zero, which such an axis cannot show, is left out.
   */
  @Test
  void barsOfAWideSpanAreDrawnOnALogarithmicAxis() {
    CategoryChart chart =
        Charts.perInteraction(
            new SweepView(Fixtures.protocolSweep()),
            "t",
            "ms",
            false,
            (run, row) ->
                switch (row.label()) {
                  case "Home" -> 0.004;
                  case "Order Inquiry" -> 0;
                  default -> row.meanMillis();
                },
            " ms");

    assertThat(chart.getStyler().isYAxisLogarithmic()).isTrue();
    assertThat(chart.getStyler().getYAxisMin()).isEqualTo(0.001);
    assertThat(chart.getTitle()).isEqualTo("t - log scale");
    List<Object> labels = categories(chart, "naive");
    List<? extends Number> ys = new ArrayList<>(chart.getSeriesMap().get("naive").getYData());
    assertThat(ys.get(labels.indexOf("Home (n=161)")).doubleValue()).isEqualTo(0.004);
    assertThat(ys.get(labels.indexOf("Order Inquiry (n=9)"))).isNull();
    assertThat(BitmapEncoder.getBufferedImage(chart).getHeight()).as("it draws").isPositive();
    assertThat(responseTimes(Fixtures.protocolSweep()).getStyler().isYAxisLogarithmic())
        .as("40 to 400 ms: linear")
        .isFalse();
  }

  private static CategoryChart responseTimes(io.stratus.bench.tpcw.harness.SweepResult sweep) {
    return Charts.perInteraction(
        new SweepView(sweep), "t", "ms", false, (run, row) -> row.meanMillis(), " ms");
  }

  private static List<Object> categories(CategoryChart chart, String series) {
    CategorySeries s = chart.getSeriesMap().get(series);
    return new ArrayList<>(s.getXData());
  }

  private static List<Double> values(CategoryChart chart, String series) {
    List<Double> ys = new ArrayList<>();
    for (Number n : chart.getSeriesMap().get(series).getYData()) {
      ys.add(n.doubleValue());
    }
    return ys;
  }
}
