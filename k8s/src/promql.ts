// PromQL as the alert rules and the dashboard use it: parsed with Prometheus's own grammar
// (@prometheus-io/lezer-promql, the parser of Prometheus's web UI), for syntax errors and for the metric
// names the expressions select, to check them against what the services export.
import { parser } from '@prometheus-io/lezer-promql';

/** Grafana's interval variables, replaced by a duration so that a panel's query parses as PromQL. */
const GRAFANA_INTERVALS = /\$__(?:rate_interval|interval|range)\b|\$\{__(?:rate_interval|interval|range)\}/g;

/** A Grafana panel query as plain PromQL: interval variables become `5m` (other variables live in strings). */
export function grafanaToPromql(expr: string): string {
  return expr.replace(GRAFANA_INTERVALS, '5m');
}

export interface ParsedPromql {
  /** Names of the metrics the expression selects (`up`, `a_total`, `rule:recorded`, …). */
  readonly metrics: Set<string>;
  /** Where the grammar failed, as `offset: text near it`; empty for a valid expression. */
  readonly errors: string[];
}

export function parsePromql(expr: string): ParsedPromql {
  const tree = parser.parse(expr);
  const metrics = new Set<string>();
  const errors: string[] = [];
  tree.iterate({
    enter: (node) => {
      if (node.type.isError) {
        errors.push(`${node.from}: ${JSON.stringify(expr.slice(Math.max(0, node.from - 10), node.from + 10))}`);
      }
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') {
        metrics.add(expr.slice(node.from, node.to));
      }
      if (node.name === 'UnquotedLabelMatcher' || node.name === 'QuotedLabelMatcher') {
        // {__name__="x"} selects a metric too.
        const text = expr.slice(node.from, node.to);
        const m = /^"?__name__"?\s*=\s*"([^"]+)"$/.exec(text);
        if (m) metrics.add(m[1]!);
      }
    },
  });
  return { metrics, errors };
}

/** The metric names an expression selects, e.g. `rate(a_total[5m]) / b` → {a_total, b}. */
export function promqlMetricNames(expr: string): Set<string> {
  return parsePromql(grafanaToPromql(expr)).metrics;
}

/**
 * The series names one exported metric family produces in the exposition format: a histogram's
 * `_bucket`, `_sum` and `_count`; a summary's quantiles under its own name plus `_sum` and `_count`.
 */
export function seriesNames(name: string, type: string): string[] {
  if (type === 'histogram') return [`${name}_bucket`, `${name}_sum`, `${name}_count`];
  if (type === 'summary') return [name, `${name}_sum`, `${name}_count`];
  return [name];
}

/** Metric families (name and type) from the `# TYPE` lines of a Prometheus text exposition. */
export function exposedFamilies(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^# TYPE ([A-Za-z_:][A-Za-z0-9_:]*) (\w+)$/gm)) out.set(m[1] ?? '', m[2] ?? '');
  return out;
}
