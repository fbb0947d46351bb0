/** What a chart holds (components/ui/series-chart.tsx), shared by the chart drawn on the server and its table. */

/** One category of a chart (a month, a project, a taxon) and its value in each series. */
export interface ChartRow {
  label: string;
  values: Record<string, number>;
}

export interface ChartSeries {
  key: string;
  label: string;
}

export const chartTotal = (r: ChartRow) => Object.values(r.values).reduce((a, b) => a + b, 0);
