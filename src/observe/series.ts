/**
 * Counters and histograms for the paths taken once per execution, node and webhook answer. prom-client's own
 * build a label hash and a few objects on every `inc`/`observe`, which on a short flow costs more than the
 * few percent of its run time metrics may take; these hand out one series per label set, kept by the caller, whose
 * `inc`/`observe` only add to numbers. prom-client's registry asks them for their values at scrape time
 * (they have the `name`, `help`, `type`, `get()` and `reset()` its registry reads).
 */

/** Label values of one series, in the order of the metric's label names. */
type LabelValues = readonly string[];

interface Value {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** What prom-client's registry reads of a metric. */
export interface Collected {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; aggregator: 'sum'; values: Value[] }>;
  reset(): void;
}

const labelsOf = (names: readonly string[], values: LabelValues): Record<string, string> => {
  const labels: Record<string, string> = {};
  names.forEach((n, i) => (labels[n] = values[i]));
  return labels;
};

/** One counter series: `inc()` adds one. */
export interface CounterSeries {
  inc(by?: number): void;
}

/**
 * A counter whose series are made once per label set by `series(values)`.
 * @example
 * const total = leanCounter('weir_executions_total', 'Executions ended', ['workflow', 'status'])
 * total.series(['orders', 'success']).inc()
 */
export function leanCounter(name: string, help: string, labelNames: readonly string[]): Collected & { series(values: LabelValues): CounterSeries } {
  const all: Array<{ labels: Record<string, string>; value: number }> = [];
  return {
    name, help, type: 'counter', aggregator: 'sum',
    series(values) {
      const s = { labels: labelsOf(labelNames, values), value: 0, inc(by = 1) { s.value += by; } };
      all.push(s);
      return s;
    },
    async get() {
      return { name, help, type: 'counter', aggregator: 'sum', values: all.map((s) => ({ value: s.value, labels: s.labels })) };
    },
    reset() {
      for (const s of all) s.value = 0;
    },
  };
}

/** One histogram series: `observe(seconds)`. */
export interface HistogramSeries {
  observe(value: number): void;
}

/**
 * A histogram (cumulative `le` buckets, `_sum`, `_count`) whose series are made once per label set.
 * @example
 * const took = leanHistogram('weir_node_duration_seconds', 'Node run time', ['type'], [0.001, 0.01, 0.1, 1])
 * took.series(['http_request']).observe(0.042)
 */
export function leanHistogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]): Collected & { series(values: LabelValues): HistogramSeries } {
  const bounds = Float64Array.from(buckets);
  const all: Array<{ labels: Record<string, string>; counts: Float64Array; sum: number; count: number }> = [];
  return {
    name, help, type: 'histogram', aggregator: 'sum',
    series(values) {
      const s = {
        labels: labelsOf(labelNames, values),
        // One slot per bound; values above the last bound are only in `count` (the `+Inf` bucket).
        counts: new Float64Array(bounds.length),
        sum: 0,
        count: 0,
        observe(v: number) {
          s.sum += v;
          s.count++;
          for (let i = 0; i < bounds.length; i++) {
            if (v <= bounds[i]) {
              s.counts[i]++;
              return;
            }
          }
        },
      };
      all.push(s);
      return s;
    },
    async get() {
      const values: Value[] = [];
      for (const s of all) {
        let cumulative = 0;
        bounds.forEach((le, i) => {
          cumulative += s.counts[i];
          values.push({ metricName: `${name}_bucket`, labels: { ...s.labels, le }, value: cumulative });
        });
        values.push({ metricName: `${name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
        values.push({ metricName: `${name}_sum`, labels: s.labels, value: s.sum });
        values.push({ metricName: `${name}_count`, labels: s.labels, value: s.count });
      }
      return { name, help, type: 'histogram', aggregator: 'sum', values };
    },
    reset() {
      for (const s of all) {
        s.counts.fill(0);
        s.sum = 0;
        s.count = 0;
      }
    },
  };
}
