import { Gauge, type Registry } from 'prom-client';

/** The data stores a Felt process depends on, as `felt_dependency_up`'s `dependency` label. */
export type Dependency = 'redis' | 'postgres';

/** One round trip to a dependency (a PING, a `SELECT 1`); it answered when it resolves in time. */
export type DependencyCheck = () => Promise<unknown>;

/** How long a check may take before the dependency counts as down for this scrape. */
export const DEPENDENCY_CHECK_TIMEOUT_MS = 2_000;

/** Whether `check` resolves within `timeoutMs`; a rejection or a timeout is a no. */
export async function answers(check: DependencyCheck, timeoutMs = DEPENDENCY_CHECK_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([
      check().then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `felt_dependency_up{dependency}`: 1 when the dependency answered a round trip at this scrape, 0 when
 * it refused or did not answer within DEPENDENCY_CHECK_TIMEOUT_MS. The checks run when Prometheus
 * scrapes (every 30 s in k8s/monitoring), so a process nobody scrapes makes no extra round trips. The
 * alerts FeltRedisUnreachable and FeltPostgresUnreachable read it.
 */
export function registerDependencyGauge(
  registry: Registry,
  checks: Partial<Record<Dependency, DependencyCheck>>,
  timeoutMs = DEPENDENCY_CHECK_TIMEOUT_MS,
): Gauge<'dependency'> {
  const entries = Object.entries(checks) as [Dependency, DependencyCheck][];
  return new Gauge({
    name: 'felt_dependency_up',
    help: '1 when the dependency (redis, postgres) answered a round trip at this scrape, else 0',
    labelNames: ['dependency'] as const,
    registers: [registry],
    async collect() {
      const results = await Promise.all(entries.map(async ([, check]) => answers(check, timeoutMs)));
      entries.forEach(([dependency], i) => this.set({ dependency }, results[i] ? 1 : 0));
    },
  });
}
