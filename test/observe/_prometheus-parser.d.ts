declare module 'parse-prometheus-text-format' {
  /** One sample of a family: `value` for counters and gauges; `buckets`, `count`, `sum` for histograms (all as text). */
  export interface Sample {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface Family {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: Sample[];
  }
  export default function parse(text: string): Family[];
}
