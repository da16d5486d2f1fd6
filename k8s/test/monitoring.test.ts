import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '@felt/platform';
import type { IPodMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor';
import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { Cluster } from '../../test/harness/cluster.js';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import {
  baseDir,
  exposedFamilies,
  grafanaToPromql,
  parsePromql,
  podLabels,
  podSpec,
  promqlMetricNames,
  renderDeployment,
  renderKustomization,
  repoRoot,
  seriesNames,
  validateRendered,
  type K8sObject,
  type RenderedObject,
} from '../src/index.js';

// What the monitoring component (k8s/monitoring) asks of Prometheus, checked against what Felt exports:
// every metric name in every alert and dashboard query must be one the services export (read from their
// source and, when Postgres and Redis answer, from the /metrics of the real services started as
// processes), one Prometheus makes itself, or one listed below as needed from the services.

/** Series Prometheus itself adds for every target. */
const PROMETHEUS_SERIES = new Set(['up', 'scrape_duration_seconds', 'scrape_samples_scraped', 'ALERTS']);

/**
 * Metrics the alerts use that no service exports yet: the services are to add them with these names and
 * labels. An entry must go once a service exports it (a test below fails then).
 */
const METRICS_NEEDED: ReadonlyMap<string, string> = new Map();

/** The operator's runbook: the metrics table and a section per alert (docs/operations.md). */
const operationsDoc = (): string => readFileSync(join(repoRoot, 'docs/operations.md'), 'utf8');

const FELT_SERVICES = ['lobby', 'gateway', 'table-worker', 'persister'] as const;
type FeltService = (typeof FELT_SERVICES)[number];

/** The label value each service's registry sets (createMetricsRegistry(service)). */
const REGISTRY_SERVICE: Readonly<Record<FeltService, string>> = {
  lobby: 'lobby',
  gateway: 'gateway',
  'table-worker': 'table-worker',
  persister: 'persister',
};

let rendered: RenderedObject[];
beforeAll(() => {
  rendered = renderDeployment().objects;
});

const of = (kind: string): K8sObject[] => rendered.filter((r) => r.object.kind === kind).map((r) => r.object);
const named = (kind: string, name: string): K8sObject => {
  const o = of(kind).find((x) => x.metadata.name === name);
  if (!o) throw new Error(`${kind}/${name} not rendered`);
  return o;
};

interface Alert {
  readonly alert: string;
  readonly expr: string;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
}
const alerts = (): Alert[] =>
  of('PrometheusRule').flatMap((r) =>
    ((r as unknown as IPrometheusRule).spec.groups ?? []).flatMap((g) =>
      (g.rules ?? []).map(
        (rule) =>
          ({
            alert: rule.alert ?? rule.record ?? '',
            expr: String(rule.expr),
            labels: rule.labels ?? {},
            annotations: rule.annotations ?? {},
          }) satisfies Alert,
      ),
    ),
  );

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: { expr: string; refId: string; legendFormat?: string; datasource?: unknown }[];
  datasource?: { type: string; uid: string };
}
interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: { name: string; type: string; query?: unknown }[] };
}
const dashboard = (): Dashboard => {
  const cm = named('ConfigMap', 'felt-grafana-dashboard') as unknown as IConfigMap;
  const files = Object.keys(cm.data ?? {});
  expect(files).toEqual(['felt.json']);
  return JSON.parse(cm.data!['felt.json']!) as Dashboard;
};

/** Every PromQL expression of the component, named by where it is. */
const expressions = (): [string, string][] => [
  ...alerts().map((a): [string, string] => [`alert ${a.alert}`, a.expr]),
  ...dashboard().panels.flatMap((p) => (p.targets ?? []).map((t): [string, string] => [`panel "${p.title}"`, t.expr])),
  ...dashboard().templating.list.flatMap((v): [string, string][] => {
    const q = v.query as { query?: string } | string | undefined;
    const text = typeof q === 'string' ? q : q?.query;
    const inner = text === undefined ? undefined : /^label_values\((.*),\s*\w+\)$/.exec(text)?.[1];
    return inner === undefined ? [] : [[`variable ${v.name}`, inner]];
  }),
  ...of('HorizontalPodAutoscaler').flatMap((h) =>
    ((h as unknown as IHorizontalPodAutoscaler).spec?.metrics ?? []).flatMap((m): [string, string][] =>
      m.pods ? [[`HPA ${h.metadata.name}`, m.pods.metric.name]] : [],
    ),
  ),
];

// ---- What the services export, from their source -------------------------------------------------

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) return tsFiles(full);
    return entry.endsWith('.ts') && !entry.endsWith('.test.ts') && !entry.endsWith('.d.ts') ? [full] : [];
  });
}

const CONSTRUCTOR =
  /new\s+(Counter|Gauge|Histogram|Summary)\b\s*(?:<[^>]*>)?\s*\(\s*\{\s*name:\s*['"`]([A-Za-z_:][\w:]*)['"`]/g;

/** Metric families (name → prom-client type) each service's own source registers. */
function sourceFamilies(): Map<FeltService, Map<string, string>> {
  const out = new Map<FeltService, Map<string, string>>();
  for (const service of FELT_SERVICES) {
    const families = new Map<string, string>();
    // Its own source, and the families @felt/platform registers for every service (felt_dependency_up).
    const files = [
      ...tsFiles(join(repoRoot, 'services', service, 'src')),
      ...tsFiles(join(repoRoot, 'packages', 'platform', 'src', 'metrics')),
    ];
    for (const file of files) {
      for (const m of readFileSync(file, 'utf8').matchAll(CONSTRUCTOR)) {
        families.set(m[2]!, m[1]!.toLowerCase());
      }
    }
    out.set(service, families);
  }
  return out;
}

/** The families every service's registry adds itself (prom-client's defaults, as @felt/platform sets them up). */
async function registryFamilies(): Promise<Map<string, string>> {
  const registry = createMetricsRegistry('k8s-test');
  const json = await registry.getMetricsAsJSON();
  registry.clear();
  return new Map(json.map((m) => [m.name, String(m.type)]));
}

const expand = (families: Map<string, string>): Set<string> =>
  new Set([...families].flatMap(([name, type]) => seriesNames(name, type)));

/** prom-client's default metric names, without any prefix: what stock Node.js dashboards query. */
async function standardDefaultSeries(): Promise<Set<string>> {
  const { Registry, collectDefaultMetrics } = await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const json = await registry.getMetricsAsJSON();
  registry.clear();
  return expand(new Map(json.map((m) => [m.name, String(m.type)])));
}

let staticSeries: Set<string>;
let staticByService: Map<FeltService, Set<string>>;
let standardDefaults: Set<string>;
beforeAll(async () => {
  const registry = expand(await registryFamilies());
  staticByService = new Map(
    [...sourceFamilies()].map(([service, families]) => [service, new Set([...expand(families), ...registry])]),
  );
  staticSeries = new Set([...staticByService.values()].flatMap((s) => [...s]));
  standardDefaults = await standardDefaultSeries();
});

/**
 * Standard default names exported under a prefix (felt_nodejs_…), which the component must not rely
 * on: the platform exports them unprefixed, so this set is empty unless that regresses.
 */
const pendingRenames = (exported: ReadonlySet<string>): Set<string> =>
  new Set([...standardDefaults].filter((n) => !exported.has(n) && [...exported].some((e) => e.endsWith(`_${n}`))));

interface Verdict {
  unknown: string[];
  needed: Set<string>;
  renamed: Set<string>;
}
function judge(exported: ReadonlySet<string>): Verdict {
  const renames = pendingRenames(exported);
  const unknown: string[] = [];
  const needed = new Set<string>();
  const renamed = new Set<string>();
  for (const [where, expr] of expressions()) {
    for (const name of promqlMetricNames(expr)) {
      if (exported.has(name) || PROMETHEUS_SERIES.has(name)) continue;
      if (METRICS_NEEDED.has(name)) needed.add(name);
      else if (renames.has(name)) renamed.add(name);
      else unknown.push(`${where}: ${name}`);
    }
  }
  return { unknown, needed, renamed };
}

describe('k8s/monitoring (a kustomize component, in the example overlay)', () => {
  it('adds a PodMonitor per service, the PrometheusRule and the Grafana dashboard ConfigMap', () => {
    const monitors = of('PodMonitor').map((m) => m.metadata.name);
    expect(monitors.sort()).toEqual(FELT_SERVICES.map((s) => `felt-${s}`).sort());
    for (const o of [...of('PodMonitor'), ...of('PrometheusRule')]) {
      expect(o.apiVersion, o.metadata.name).toBe('monitoring.coreos.com/v1');
      // The label kube-prometheus-stack's Prometheus selects monitors and rules by.
      expect(o.metadata.labels?.['release'], o.metadata.name).toBe('kube-prometheus-stack');
      expect(o.metadata.namespace).toBe('felt');
    }
    const cm = named('ConfigMap', 'felt-grafana-dashboard');
    expect(cm.metadata.labels?.['grafana_dashboard']).toBe('1');
    expect(cm.metadata.namespace).toBe('felt');
  });

  it('is optional: the base and the Secrets alone render and validate without it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'felt-k8s-nomon-'));
    try {
      const cert = ['ca.crt=x', 'tls.crt=x', 'tls.key=x'];
      writeFileSync(
        join(dir, 'kustomization.yaml'),
        [
          'namespace: felt',
          `resources: [${relative(dir, baseDir)}]`,
          'secretGenerator:',
          '  - name: felt-secrets',
          '    literals: [FELT_SESSION_SECRET=x, DATABASE_URL=postgresql://x, REDIS_URL=redis://x]',
          ...['felt-worker-grpc-tls', 'felt-gateway-grpc-tls'].flatMap((name) => [
            `  - name: ${name}`,
            `    literals: [${cert.join(', ')}]`,
          ]),
          'generatorOptions:',
          '  disableNameSuffixHash: true',
        ].join('\n'),
      );
      const r = renderKustomization(dir);
      expect(r.objects.filter((o) => o.object.apiVersion.startsWith('monitoring.coreos.com/'))).toEqual([]);
      expect(r.objects.some((o) => o.object.metadata.name === 'felt-grafana-dashboard')).toBe(false);
      const findings = await validateRendered(r);
      expect(findings.map((f) => `${f.source} ${f.object}: ${f.message}`)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scrapes each service on the container port that serves its /metrics, labelled job="felt-<service>"', () => {
    const metricsPort: Record<FeltService, string> = {
      lobby: 'ops',
      gateway: 'http',
      'table-worker': 'http',
      persister: 'http',
    };
    const workloads = rendered.filter((r) => ['Deployment', 'StatefulSet'].includes(r.object.kind));
    for (const service of FELT_SERVICES) {
      const pm = named('PodMonitor', `felt-${service}`) as unknown as IPodMonitor & K8sObject;
      const selected = workloads.filter((w) =>
        Object.entries(pm.spec.selector.matchLabels ?? {}).every(([k, v]) => podLabels(w.object)[k] === v),
      );
      expect(
        selected.map((w) => w.object.metadata.name),
        service,
      ).toEqual([`felt-${service}`]);
      const endpoints = pm.spec.podMetricsEndpoints ?? [];
      expect(endpoints).toHaveLength(1);
      expect(endpoints[0]).toMatchObject({ port: metricsPort[service], path: '/metrics' });
      // The named port exists on the container, and it is the one the Prometheus annotation names.
      const workload = selected[0]!.object;
      const container = podSpec(workload)!.containers[0]!;
      const port = container.ports?.find((p) => p.name === endpoints[0]!.port);
      expect(port, `${service} port ${endpoints[0]!.port}`).toBeDefined();
      const annotations = (workload['spec'] as { template: { metadata: { annotations: Record<string, string> } } })
        .template.metadata.annotations;
      expect(String(port?.containerPort)).toBe(annotations['prometheus.io/port']);
      expect(endpoints[0]!.relabelings).toEqual([{ targetLabel: 'job', replacement: `felt-${service}` }]);
    }
  });

  it('alerts on every condition an operator must hear of, each with a severity, a summary and a runbook section', () => {
    const names = new Set(alerts().map((a) => a.alert));
    for (const required of [
      'FeltHandQueueLag',
      'FeltHandJobsFailed',
      'FeltPersisterNotConsuming',
      'FeltLeaseLosses',
      'FeltStaleWritesRefused',
      'FeltCheckpointWritesFailing',
      'FeltNotOwnerRate',
      'FeltSlowReaderCloses',
      'FeltEventLoopLag',
      'FeltGatewaySocketsNearCap',
      'FeltRedisUnreachable',
      'FeltPostgresUnreachable',
      'FeltAuditFailed',
    ]) {
      expect(names, required).toContain(required);
    }
    // The runbook is docs/operations.md, section "Alerts": one heading per alert.
    const docs = operationsDoc();
    const anchors = new Set([...docs.matchAll(/^#{2,4} (Felt\w+)\s*$/gm)].map((m) => m[1]!.toLowerCase()));
    const seen = new Set<string>();
    for (const a of alerts()) {
      expect(['warning', 'critical'], a.alert).toContain(a.labels['severity']);
      expect(a.annotations['summary'], a.alert).toBeTruthy();
      expect(a.annotations['description'], a.alert).toBeTruthy();
      const anchor = /^docs\/operations\.md#(\w+)$/.exec(a.annotations['runbook_url'] ?? '')?.[1];
      expect(anchor, `${a.alert} runbook_url`).toBeDefined();
      expect(anchors, `${a.alert}: no "### ${a.alert}"-style runbook heading for #${anchor}`).toContain(anchor);
      // The same alert may exist once per severity, never twice with one.
      const key = `${a.alert}/${a.labels['severity']}`;
      expect(seen, key).not.toContain(key);
      seen.add(key);
    }
  });

  it('selects Felt series by the labels the PodMonitors and registries set', () => {
    for (const a of alerts()) {
      for (const m of a.expr.matchAll(/\bup\{([^}]*)\}/g)) expect(m[1], a.alert).toMatch(/job=~?"felt-/);
      for (const m of a.expr.matchAll(/\{[^}]*service=~"([^"]*)"/g)) {
        expect(m[1]!.split('|').sort(), a.alert).toEqual(Object.values(REGISTRY_SERVICE).sort());
      }
    }
  });

  it('has a dashboard with the panels an operator needs, in a shape Grafana loads', () => {
    const d = dashboard();
    expect(d.uid).toMatch(/^[\w-]{1,40}$/);
    expect(d.templating.list.map((v) => [v.name, v.type])).toEqual([
      ['datasource', 'datasource'],
      ['namespace', 'query'],
    ]);
    const ids = d.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const titles = d.panels.map((p) => p.title.toLowerCase()).join('\n');
    for (const topic of [
      'open sockets by gateway',
      'live tables by worker',
      'hands per second by worker',
      'action latency percentiles',
      'queue depth',
      'queue lag',
      'lease events',
      'stale writes',
      '5xx',
      'errors',
      'event loop lag',
    ])
      expect(titles, topic).toContain(topic);
    // Panels lie on the 24-column grid without overlapping.
    const cells = new Set<string>();
    for (const p of d.panels) {
      expect(p.gridPos.x + p.gridPos.w, p.title).toBeLessThanOrEqual(24);
      for (let x = p.gridPos.x; x < p.gridPos.x + p.gridPos.w; x++)
        for (let y = p.gridPos.y; y < p.gridPos.y + p.gridPos.h; y++) {
          expect(cells.has(`${x},${y}`), `${p.title} overlaps at ${x},${y}`).toBe(false);
          cells.add(`${x},${y}`);
        }
      if (p.type === 'row') continue;
      expect(p.datasource?.uid, p.title).toBe('${datasource}');
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
      const refIds = (p.targets ?? []).map((t) => t.refId);
      expect(new Set(refIds).size, p.title).toBe(refIds.length);
      for (const t of p.targets ?? []) expect(t.expr, p.title).toContain('namespace="$namespace"');
    }
  });

  it('documents every Felt metric, and every needed one, in the metrics table', () => {
    const docs = operationsDoc();
    const rows = new Set([...docs.matchAll(/^\| `(felt_\w+)`/gm)].map((m) => m[1]!));
    const families = [...sourceFamilies().values()].flatMap((f) => [...f.keys()]);
    expect(families.filter((n) => !rows.has(n))).toEqual([]);
    expect([...METRICS_NEEDED.keys()].filter((n) => !rows.has(n))).toEqual([]);
  });

  it('uses the standard names of prom-client’s default metrics, never a prefixed copy', () => {
    for (const [where, expr] of expressions()) {
      for (const name of promqlMetricNames(expr)) {
        expect(name.startsWith('felt_') && standardDefaults.has(name.slice('felt_'.length)), `${where}: ${name}`).toBe(
          false,
        );
      }
    }
  });

  it('writes every alert and panel query in valid PromQL', () => {
    for (const [where, expr] of expressions()) {
      expect(parsePromql(grafanaToPromql(expr)).errors, `${where}: ${expr}`).toEqual([]);
    }
    // The parser does catch mistakes.
    expect(parsePromql('sum by (a (rate(x[5m]))').errors).not.toEqual([]);
    expect(parsePromql('rate(x[$__rate_interval])').errors).not.toEqual([]);
  });

  it('reads metric names out of PromQL', () => {
    expect(
      promqlMetricNames(
        'histogram_quantile(0.99, sum by (namespace, le) (rate(a_bucket{type="x", b=~"c|d"}[5m]))) > 0.5 ' +
          'and on (namespace) b_total offset 5m unless sum(c_seconds) by (pod) * 60 > 1e3 or absent(up{job="x"} == 1) ' +
          '/ max without (le) (d:recorded[$__rate_interval])',
      ),
    ).toEqual(new Set(['a_bucket', 'b_total', 'c_seconds', 'up', 'd:recorded']));
    expect(promqlMetricNames('time() - max(felt_x{ns="$namespace"}) > bool 3')).toEqual(new Set(['felt_x']));
    expect(promqlMetricNames('rate({__name__="named"}[$__rate_interval])')).toEqual(new Set(['named']));
    expect(exposedFamilies('# HELP a x\n# TYPE a counter\na 1\n# TYPE b_seconds histogram\n')).toEqual(
      new Map([
        ['a', 'counter'],
        ['b_seconds', 'histogram'],
      ]),
    );
  });

  it('queries only metrics the services export (per their source), Prometheus adds, or are listed as needed', () => {
    const verdict = judge(staticSeries);
    expect(verdict.unknown, 'metrics no service exports and METRICS_NEEDED does not list').toEqual([]);
    // Every entry of METRICS_NEEDED is used, and none is exported yet (remove it once a service does).
    expect([...METRICS_NEEDED.keys()].filter((n) => !verdict.needed.has(n))).toEqual([]);
    expect([...METRICS_NEEDED.keys()].filter((n) => staticSeries.has(n))).toEqual([]);
    if (verdict.needed.size + verdict.renamed.size > 0) {
      console.info(
        `k8s/monitoring waits for the services to export: ${[...verdict.needed].join(', ')}` +
          (verdict.renamed.size > 0
            ? `; and, unprefixed (packages/platform/src/metrics/registry.ts), ${[...verdict.renamed].join(', ')}`
            : ''),
      );
    }
  });
});

// ---- The same check against the running services --------------------------------------------------

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || defaultPort) });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function liveSkipReason(): Promise<string | undefined> {
  if (process.env['FELT_K8S_LIVE_METRICS'] === '0') return 'FELT_K8S_LIVE_METRICS=0';
  for (const s of FELT_SERVICES) {
    if (!existsSync(join(repoRoot, 'services', s, 'dist', 'main.js')))
      return `services/${s} is not built (npm run build)`;
  }
  const pg = process.env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/felt';
  const redis = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  if (!(await reachable(pg, 5432))) return `Postgres does not answer at ${new URL(pg).host}`;
  if (!(await reachable(redis, 6379))) return `Redis does not answer at ${new URL(redis).host}`;
  return undefined;
}

const skipLive = await liveSkipReason();
if (skipLive !== undefined) {
  console.info(`k8s/test/monitoring.test.ts: the running-services metric check is skipped: ${skipLive}`);
}

describe.skipIf(skipLive !== undefined)('k8s/monitoring against the services’ /metrics (processes)', () => {
  // The test harness's cluster: a fresh database, a random Redis prefix, each service its own process.
  let cluster: Cluster | undefined;
  const scraped = new Map<FeltService, Map<string, string>>();
  const texts = new Map<Map<string, string>, string>();

  const scrape = async (url: string): Promise<Map<string, string> | undefined> => {
    const res = await fetch(`${url}/metrics`).catch(() => undefined);
    if (!res?.ok) return undefined;
    const text = await res.text();
    const families = exposedFamilies(text);
    texts.set(families, text);
    return families;
  };

  beforeAll(async () => {
    // Loaded here, not at the top: only this block needs the harness (and Postgres and Redis).
    const harness = await import('../../test/harness/cluster.js');
    // LOBBY_OPS_PORT=0: once the lobby serves its ops endpoints apart, on an ephemeral port.
    cluster = await harness.Cluster.start({
      workers: 1,
      gateways: 1,
      lobby: true,
      persister: true,
      env: { LOBBY_OPS_PORT: '0' },
    });
    const lobby = cluster.lobby!;
    // /metrics is on one of the ports the lobby announced (its ops port once it has one).
    const lobbyPorts = Object.values(lobby.proc.ready).filter((v): v is number => typeof v === 'number');
    for (const port of lobbyPorts) {
      const families = await scrape(`http://127.0.0.1:${port}`);
      if (families && families.size > 0) {
        scraped.set('lobby', families);
        break;
      }
    }
    scraped.set('gateway', (await scrape(cluster.gateways[0]!.httpUrl)) ?? new Map<string, string>());
    scraped.set('table-worker', (await scrape(cluster.workers[0]!.httpUrl)) ?? new Map<string, string>());
    scraped.set('persister', (await scrape(cluster.persister!.httpUrl)) ?? new Map<string, string>());
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('serves /metrics from every service, carrying its service label', () => {
    for (const s of FELT_SERVICES) {
      const families = scraped.get(s);
      expect(families?.size ?? 0, s).toBeGreaterThan(0);
      // The alerts select and group by this label (e.g. FeltEventLoopLag's service=~"…").
      expect(texts.get(families!) ?? '', s).toContain(`service="${REGISTRY_SERVICE[s]}"`);
    }
  });

  it('exports every metric its source registers (so the source check above sees what runs)', () => {
    for (const s of FELT_SERVICES) {
      const live = expand(scraped.get(s) ?? new Map<string, string>());
      const missing = [...(staticByService.get(s) ?? [])].filter((n) => !live.has(n));
      expect(missing, s).toEqual([]);
    }
  });

  it('queries only metrics the running services export, Prometheus adds, or are listed as needed', () => {
    const live = new Set([...scraped.values()].flatMap((families) => [...expand(families)]));
    const verdict = judge(live);
    expect(verdict.unknown).toEqual([]);
    expect([...METRICS_NEEDED.keys()].filter((n) => live.has(n))).toEqual([]);
  });
});
