import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Test-only: the ConfigMap's values are checked with the same zod pieces the services build their
// env schemas from.
import {
  ConfigError,
  commonEnv,
  envFlag,
  envList,
  envPort,
  envPositiveInt,
  parseEnv,
  registryEnv,
} from '@felt/platform';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import {
  ManifestError,
  ManifestErrorCode,
  allContainers,
  baseDir,
  contractEnvVars,
  defaultReferenceContext,
  isWorkload,
  podSecurityFindings,
  podSpec,
  referenceFindings,
  renderDeployment,
  renderKustomization,
  repoRoot,
  schemaFindings,
  strictFieldFindings,
  validateRendered,
  type Finding,
  type K8sObject,
  type RenderedObject,
  type RenderResult,
} from '../src/index.js';

let base: RenderResult;
beforeAll(() => {
  base = renderDeployment();
});

const get = (kind: string, name: string, objects: readonly RenderedObject[] = base.objects): K8sObject => {
  const found = objects.find((r) => r.object.kind === kind && r.object.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} not rendered`);
  return found.object;
};
const containerOf = (o: K8sObject): IContainer => {
  const c = podSpec(o)?.containers[0];
  if (!c) throw new Error(`${o.kind}/${o.metadata.name} has no container`);
  return c;
};
const config = (): Record<string, string> => (get('ConfigMap', 'felt-config') as unknown as IConfigMap).data ?? {};
const format = (findings: Finding[]): string[] => findings.map((f) => `${f.source} ${f.object}: ${f.message}`);

// Each service workspace, the workload that runs it, and the variables naming its ports.
const SERVICES = [
  { dir: 'services/lobby', kind: 'Deployment', name: 'felt-lobby', ports: { LOBBY_PORT: 'http' } },
  { dir: 'services/gateway', kind: 'Deployment', name: 'felt-gateway', ports: { GATEWAY_PORT: 'http' } },
  {
    dir: 'services/table-worker',
    kind: 'StatefulSet',
    name: 'felt-table-worker',
    ports: { WORKER_GRPC_PORT: 'grpc', WORKER_HTTP_PORT: 'http' },
  },
  { dir: 'services/persister', kind: 'Deployment', name: 'felt-persister', ports: { PERSISTER_HTTP_PORT: 'http' } },
] as const;

describe('k8s/overlays/example (the base plus its Secret and image)', () => {
  it('passes every offline check: schema, unknown fields, cross-references, pod security', async () => {
    expect(format(await validateRendered(base))).toEqual([]);
  });

  it('renders the whole cluster and lists every manifest file', () => {
    const names = base.objects.map((r) => `${r.object.kind}/${r.object.metadata.name}`).sort();
    expect(names).toEqual(
      [
        'ConfigMap/felt-config',
        'Deployment/felt-gateway',
        'Deployment/felt-lobby',
        'Deployment/felt-persister',
        'Ingress/felt',
        'Job/felt-migrate',
        'Namespace/felt',
        'PodDisruptionBudget/felt-gateway',
        'PodDisruptionBudget/felt-lobby',
        'PodDisruptionBudget/felt-table-worker',
        'Secret/felt-secrets',
        'Service/felt-gateway',
        'Service/felt-lobby',
        'Service/felt-table-worker',
        'StatefulSet/felt-table-worker',
      ].sort(),
    );
    expect(base.unlistedFiles).toEqual([]);
    for (const r of base.objects) {
      if (r.object.kind !== 'Namespace') expect(r.object.metadata.namespace, r.source).toBe('felt');
    }
  });

  it('covers every service workspace, running its start script from its directory', () => {
    const workspaces = readdirSync(join(repoRoot, 'services')).filter((d) =>
      existsSync(join(repoRoot, 'services', d, 'package.json')),
    );
    expect(workspaces.map((d) => `services/${d}`).sort()).toEqual(SERVICES.map((s) => s.dir).sort());
    for (const s of SERVICES) {
      const pkg = JSON.parse(readFileSync(join(repoRoot, s.dir, 'package.json'), 'utf8')) as {
        scripts?: Record<string, string>;
      };
      const c = containerOf(get(s.kind, s.name));
      expect(c.command, s.dir).toEqual(pkg.scripts?.['start']?.split(' '));
      expect(c.workingDir, s.dir).toBe(`/app/${s.dir}`);
      expect(c.image, s.dir).toBe('registry.example.com/felt:0.1.0');
    }
  });

  it('wires liveness to /healthz and readiness to /readyz on each service’s HTTP port', () => {
    for (const s of SERVICES) {
      const c = containerOf(get(s.kind, s.name));
      expect(c.livenessProbe?.httpGet, s.name).toMatchObject({ path: '/healthz', port: 'http' });
      expect(c.readinessProbe?.httpGet, s.name).toMatchObject({ path: '/readyz', port: 'http' });
      expect(c.startupProbe?.httpGet, s.name).toMatchObject({ path: '/healthz', port: 'http' });
    }
  });

  it('opens the ports the ConfigMap tells each service to bind, and scrapes the one serving /metrics', () => {
    const data = config();
    for (const s of SERVICES) {
      const o = get(s.kind, s.name);
      const c = containerOf(o);
      for (const [envVar, portName] of Object.entries(s.ports)) {
        const port = c.ports?.find((p) => p.name === portName);
        expect(port, `${s.name} port ${portName}`).toBeDefined();
        expect(String(port?.containerPort), `${s.name} ${envVar}`).toBe(data[envVar]);
      }
      const annotations = (o['spec'] as { template: { metadata: { annotations: Record<string, string> } } }).template
        .metadata.annotations;
      expect(annotations['prometheus.io/scrape']).toBe('true');
      expect(annotations['prometheus.io/path']).toBe('/metrics');
      expect(annotations['prometheus.io/port']).toBe(String(c.ports?.find((p) => p.name === 'http')?.containerPort));
    }
  });

  it('names each worker by its pod and advertises its stable DNS name under the headless Service', () => {
    const sts = get('StatefulSet', 'felt-table-worker');
    const serviceName = (sts['spec'] as { serviceName: string }).serviceName;
    const svc = get('Service', serviceName) as unknown as IService;
    expect(svc.spec?.clusterIP).toBe('None');
    expect(svc.spec?.publishNotReadyAddresses).toBe(true);
    const env = containerOf(sts).env ?? [];
    const byName = new Map(env.map((e) => [e.name, e]));
    expect(byName.get('WORKER_ID')?.valueFrom?.fieldRef?.fieldPath).toBe('metadata.name');
    expect(byName.get('POD_NAMESPACE')?.valueFrom?.fieldRef?.fieldPath).toBe('metadata.namespace');
    expect(byName.get('WORKER_ADVERTISE_ADDR')?.value).toBe(
      `$(WORKER_ID).${serviceName}.$(POD_NAMESPACE).svc.cluster.local:${config()['WORKER_GRPC_PORT']}`,
    );
  });

  it('keeps secrets in the Secret, settings in the ConfigMap, and gives each workload only the keys it reads', () => {
    const secret = get('Secret', 'felt-secrets') as unknown as ISecret;
    expect(Object.keys(secret.data ?? {}).sort()).toEqual(['DATABASE_URL', 'FELT_SESSION_SECRET']);
    // The committed example must not carry a usable session key: a forgotten secrets.env fails at start-up.
    expect(Buffer.from(secret.data?.['FELT_SESSION_SECRET'] ?? '', 'base64').toString()).toBe('');
    expect(Object.keys(config())).not.toContain('FELT_SESSION_SECRET');
    expect(Object.keys(config())).not.toContain('DATABASE_URL');

    const secretKeysOf = (c: IContainer): string[] => {
      const whole = (c.envFrom ?? []).some((r) => r.secretRef?.name === 'felt-secrets');
      const keys = (c.env ?? []).flatMap((e) =>
        e.valueFrom?.secretKeyRef?.name === 'felt-secrets' ? [e.valueFrom.secretKeyRef.key] : [],
      );
      return whole ? [...Object.keys(secret.data ?? {}), ...keys] : keys;
    };
    const expected: [string, string, string[]][] = [
      ['Deployment', 'felt-lobby', ['DATABASE_URL', 'FELT_SESSION_SECRET']],
      ['Deployment', 'felt-gateway', ['FELT_SESSION_SECRET']],
      ['StatefulSet', 'felt-table-worker', ['DATABASE_URL']],
      ['Deployment', 'felt-persister', ['DATABASE_URL']],
      ['Job', 'felt-migrate', ['DATABASE_URL']],
    ];
    for (const [kind, name, keys] of expected) {
      const c = containerOf(get(kind, name));
      expect(secretKeysOf(c).sort(), name).toEqual(keys);
      if (kind !== 'Job')
        expect(
          c.envFrom?.map((r) => r.configMapRef?.name),
          name,
        ).toContain('felt-config');
    }
  });

  it('sets only values the services accept (their shared env schemas from @felt/platform)', () => {
    const shape = {
      ...commonEnv,
      ...registryEnv,
      LOBBY_PORT: envPort,
      GATEWAY_PORT: envPort,
      WORKER_GRPC_PORT: envPort,
      WORKER_HTTP_PORT: envPort,
      PERSISTER_HTTP_PORT: envPort,
      FELT_COOKIE_SECURE: envFlag,
      FELT_SIGNUP_GRANT: envPositiveInt,
      GATEWAY_MAX_PAYLOAD: envPositiveInt,
      GATEWAY_RATE_PER_SEC: envPositiveInt,
      GATEWAY_RATE_BURST: envPositiveInt,
      GATEWAY_ALLOWED_ORIGINS: envList,
      FELT_GATEWAY_URLS: envList,
      FELT_HANDS_QUEUE: envList,
      FELT_LEASE_TTL_MS: envPositiveInt,
      FELT_LEASE_WAIT_MS: envPositiveInt,
      FELT_DRAIN_DEADLINE_MS: envPositiveInt,
    };
    const data = config();
    // Every ConfigMap key is covered here, so a new setting cannot skip validation.
    expect(Object.keys(data).filter((k) => !(k in shape))).toEqual([]);
    const parsed = parseEnv(shape, data);
    expect(parsed.FELT_COOKIE_SECURE).toBe(true);
    expect(parsed.FELT_REDIS_PREFIX).toBe('felt:');
    for (const origin of parsed.GATEWAY_ALLOWED_ORIGINS) expect(new URL(origin).origin).toBe(origin);
    for (const url of parsed.FELT_GATEWAY_URLS) expect(new URL(url).protocol).toMatch(/^wss?:$/);
    expect(parsed.FELT_HANDS_QUEUE).toHaveLength(1);
    expect(parsed.FELT_MEMBER_TTL_MS).toBeGreaterThan(2 * parsed.FELT_HEARTBEAT_MS);
    // A lease outlives a missed renewal (renewed every third of its TTL).
    expect(parsed.FELT_LEASE_TTL_MS).toBeGreaterThanOrEqual(3 * parsed.FELT_HEARTBEAT_MS);
    // And the same check refuses a bad value.
    expect(() => parseEnv(shape, { ...data, FELT_COOKIE_SECURE: 'yes' })).toThrow(ConfigError);
  });

  it('serves lobby and gateway on one TLS origin, the one the gateway allows and the lobby hands out', () => {
    const ing = get('Ingress', 'felt') as unknown as IIngress;
    const host = ing.spec?.rules?.[0]?.host;
    expect(host).toBeDefined();
    expect(ing.spec?.tls?.[0]?.hosts).toEqual([host]);
    const data = config();
    expect(data['GATEWAY_ALLOWED_ORIGINS']?.split(',')).toContain(`https://${host}`);
    expect(data['FELT_GATEWAY_URLS']?.split(',')).toEqual([`wss://${host}/ws`]);
    expect(data['FELT_COOKIE_SECURE']).toBe('true');
    const paths = ing.spec?.rules?.[0]?.http?.paths.map((p) => [p.path, p.backend.service?.name]);
    expect(paths).toEqual([
      ['/ws', 'felt-gateway'],
      ['/', 'felt-lobby'],
    ]);
  });

  it('runs migrations as a Job, with the database secret, using the command @felt/db ships', () => {
    const job = get('Job', 'felt-migrate');
    const c = containerOf(job);
    expect(c.envFrom).toBeUndefined();
    expect(c.env?.map((e) => e.name)).toEqual(['DATABASE_URL']);
    expect(c.workingDir).toBe('/app/prisma');
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'prisma/package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    expect(c.command).toEqual(pkg.scripts?.['migrate:deploy']?.split(' '));
    // The script runs the built entry point of a source file that exists.
    const entry = c.command?.at(-1) ?? '';
    expect(existsSync(join(repoRoot, 'prisma', entry.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts')))).toBe(true);
  });

  it('runs enough replicas to survive one pod loss, with disruption budgets', () => {
    const replicas = (kind: string, name: string): number => (get(kind, name)['spec'] as { replicas: number }).replicas;
    expect(replicas('Deployment', 'felt-lobby')).toBeGreaterThanOrEqual(2);
    expect(replicas('Deployment', 'felt-gateway')).toBeGreaterThanOrEqual(2);
    expect(replicas('StatefulSet', 'felt-table-worker')).toBeGreaterThanOrEqual(2);
    expect(replicas('Deployment', 'felt-persister')).toBeGreaterThanOrEqual(1);
  });

  it('gives a worker time to drain: a preStop hook, and a grace period above the drain deadline', () => {
    const sts = get('StatefulSet', 'felt-table-worker');
    const pod = (sts['spec'] as { template: { spec: Record<string, unknown> } }).template.spec;
    const grace = pod['terminationGracePeriodSeconds'] as number;
    const container = (pod['containers'] as IContainer[]).find((c) => c.name === 'table-worker')!;
    expect(container.lifecycle?.preStop?.exec?.command).toEqual(['node', 'dist/ops/drain.js']);
    const deadlineMs = Number(config()['FELT_DRAIN_DEADLINE_MS']);
    // The preStop waits at most the deadline + 5 s; the shutdown after SIGTERM takes a few seconds more.
    expect(grace * 1000).toBeGreaterThanOrEqual(deadlineMs + 5_000 + 8_000);
    expect(existsSync(join(repoRoot, 'services/table-worker/src/ops/drain.ts'))).toBe(true);
    const pdb = get('PodDisruptionBudget', 'felt-table-worker')['spec'] as { maxUnavailable?: number };
    expect(pdb.maxUnavailable).toBe(1);
  });

  it('reads the env var names from docs/dev/contracts.md', () => {
    const names = contractEnvVars(readFileSync(join(repoRoot, 'docs/dev/contracts.md'), 'utf8'));
    for (const n of ['DATABASE_URL', 'FELT_SESSION_SECRET', 'LOBBY_HOST', 'LOBBY_PORT', 'WORKER_ADVERTISE_ADDR']) {
      expect(names).toContain(n);
    }
    expect(names).not.toContain('POD_NAMESPACE');
  });
});

type Check = 'schema' | 'strict' | 'refs' | 'security';
interface Breakage {
  readonly what: string;
  readonly check: Check;
  readonly expected: RegExp;
  readonly mutate: (find: (kind: string, name: string) => K8sObject) => void;
}

const mainContainer = (o: K8sObject): Record<string, unknown> =>
  (o['spec'] as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec.containers[0]!;

const BREAKAGES: Breakage[] = [
  {
    what: 'a containerPort that is not a number',
    check: 'schema',
    expected: /containerPort must be integer/,
    mutate: (find) => {
      (mainContainer(find('Deployment', 'felt-lobby'))['ports'] as { containerPort: unknown }[])[0]!.containerPort =
        'http';
    },
  },
  {
    what: 'a Service without ports in the wrong shape',
    check: 'schema',
    expected: /ports must be array/,
    mutate: (find) => {
      (find('Service', 'felt-lobby')['spec'] as Record<string, unknown>)['ports'] = { name: 'http' };
    },
  },
  {
    what: 'an unknown kind',
    check: 'schema',
    expected: /unknown apiVersion\/kind apps\/v1\/Deploymnet/,
    mutate: (find) => {
      find('Deployment', 'felt-lobby').kind = 'Deploymnet';
    },
  },
  {
    what: 'a misspelt probe field',
    check: 'strict',
    expected: /'"livenessProbes"' does not exist in type 'IContainer'/,
    mutate: (find) => {
      mainContainer(find('Deployment', 'felt-gateway'))['livenessProbes'] = { httpGet: { path: '/healthz' } };
    },
  },
  {
    what: 'a field at the wrong level of the pod spec',
    check: 'strict',
    expected: /'"replicas"' does not exist in type 'IPodSpec'/,
    mutate: (find) => {
      (
        find('StatefulSet', 'felt-table-worker')['spec'] as { template: { spec: Record<string, unknown> } }
      ).template.spec['replicas'] = 3;
    },
  },
  {
    what: 'a Service selecting no pod',
    check: 'refs',
    expected: /Service\/felt-gateway: selector matches no workload/,
    mutate: (find) => {
      (find('Service', 'felt-gateway') as unknown as IService).spec!.selector!['app.kubernetes.io/component'] = 'gw';
    },
  },
  {
    what: 'a Service targeting a port no container opens',
    check: 'refs',
    expected: /port http targets metrics, which Deployment\/felt-lobby does not open/,
    mutate: (find) => {
      (find('Service', 'felt-lobby') as unknown as IService).spec!.ports![0]!.targetPort = 'metrics';
    },
  },
  {
    what: 'a Deployment whose selector misses its own pods',
    check: 'refs',
    expected: /Deployment\/felt-persister: spec.selector does not match the pod template labels/,
    mutate: (find) => {
      (
        find('Deployment', 'felt-persister')['spec'] as { selector: { matchLabels: Record<string, string> } }
      ).selector.matchLabels['app.kubernetes.io/component'] = 'persist';
    },
  },
  {
    what: 'an envFrom naming a missing ConfigMap',
    check: 'refs',
    expected: /envFrom names missing ConfigMap "felt-cfg"/,
    mutate: (find) => {
      (
        mainContainer(find('Deployment', 'felt-lobby'))['envFrom'] as { configMapRef?: { name: string } }[]
      )[0]!.configMapRef!.name = 'felt-cfg';
    },
  },
  {
    what: 'an envFrom naming a missing Secret',
    check: 'refs',
    expected: /envFrom names missing Secret "felt-secret"/,
    mutate: (find) => {
      (
        mainContainer(find('Deployment', 'felt-lobby'))['envFrom'] as { secretRef?: { name: string } }[]
      )[1]!.secretRef!.name = 'felt-secret';
    },
  },
  {
    what: 'a secretKeyRef naming a key the Secret lacks',
    check: 'refs',
    expected: /env DATABASE_URL names missing Secret key felt-secrets\/DB_URL/,
    mutate: (find) => {
      const env = mainContainer(find('Job', 'felt-migrate'))['env'] as {
        valueFrom: { secretKeyRef: { key: string } };
      }[];
      env[0]!.valueFrom.secretKeyRef.key = 'DB_URL';
    },
  },
  {
    what: 'a volume mount with no volume',
    check: 'refs',
    expected: /mounts unknown volume "tmpfs"/,
    mutate: (find) => {
      (mainContainer(find('Deployment', 'felt-gateway'))['volumeMounts'] as { name: string }[])[0]!.name = 'tmpfs';
    },
  },
  {
    what: 'a readiness probe on a port the container does not open',
    check: 'refs',
    expected: /readinessProbe uses port metrics, not opened/,
    mutate: (find) => {
      (
        mainContainer(find('StatefulSet', 'felt-table-worker'))['readinessProbe'] as { httpGet: { port: string } }
      ).httpGet.port = 'metrics';
    },
  },
  {
    what: 'a StatefulSet pointing at a Service that does not exist',
    check: 'refs',
    expected: /serviceName "felt-workers" names no Service/,
    mutate: (find) => {
      (find('StatefulSet', 'felt-table-worker')['spec'] as { serviceName: string }).serviceName = 'felt-workers';
    },
  },
  {
    what: 'a worker Service that is not headless',
    check: 'refs',
    expected: /serviceName "felt-table-worker" is not a headless Service/,
    mutate: (find) => {
      delete (find('Service', 'felt-table-worker') as unknown as IService).spec!.clusterIP;
    },
  },
  {
    what: 'an env var no service reads',
    check: 'refs',
    expected: /sets FELT_REDIS_PREFX, which no Felt service reads/,
    mutate: (find) => {
      const data = (find('ConfigMap', 'felt-config') as unknown as IConfigMap).data!;
      data['FELT_REDIS_PREFX'] = data['FELT_REDIS_PREFIX']!;
    },
  },
  {
    what: 'a $(VAR) reference to an undefined variable',
    check: 'refs',
    expected: /env WORKER_ADVERTISE_ADDR refers to \$\(POD_NAME\), which is not defined before it/,
    mutate: (find) => {
      const env = mainContainer(find('StatefulSet', 'felt-table-worker'))['env'] as { name: string; value?: string }[];
      env.find((e) => e.name === 'WORKER_ADVERTISE_ADDR')!.value = '$(POD_NAME).felt-table-worker:50051';
    },
  },
  {
    what: 'a Prometheus port annotation that is not a container port',
    check: 'refs',
    expected: /prometheus.io\/port 9100 is not a container port/,
    mutate: (find) => {
      (
        find('Deployment', 'felt-persister')['spec'] as {
          template: { metadata: { annotations: Record<string, string> } };
        }
      ).template.metadata.annotations['prometheus.io/port'] = '9100';
    },
  },
  {
    what: 'an Ingress backend port the Service lacks',
    check: 'refs',
    expected: /backend port ws is not a port of Service "felt-gateway"/,
    mutate: (find) => {
      (find('Ingress', 'felt') as unknown as IIngress).spec!.rules![0]!.http!.paths[0]!.backend.service!.port = {
        name: 'ws',
      };
    },
  },
  {
    what: 'a PodDisruptionBudget protecting nothing',
    check: 'refs',
    expected: /PodDisruptionBudget\/felt-lobby: selector matches no workload/,
    mutate: (find) => {
      (
        find('PodDisruptionBudget', 'felt-lobby')['spec'] as { selector: { matchLabels: Record<string, string> } }
      ).selector.matchLabels['app.kubernetes.io/component'] = 'lobbby';
    },
  },
  {
    what: 'a pod that may run as root',
    check: 'security',
    expected: /container "lobby" is not runAsNonRoot/,
    mutate: (find) => {
      const spec = (find('Deployment', 'felt-lobby')['spec'] as { template: { spec: Record<string, unknown> } })
        .template.spec;
      delete (spec['securityContext'] as Record<string, unknown>)['runAsNonRoot'];
    },
  },
  {
    what: 'a container without a memory limit',
    check: 'security',
    expected: /container "persister" has no memory limit/,
    mutate: (find) => {
      delete (mainContainer(find('Deployment', 'felt-persister'))['resources'] as { limits: Record<string, unknown> })
        .limits['memory'];
    },
  },
  {
    what: 'a writable root filesystem',
    check: 'security',
    expected: /container "table-worker" has a writable root filesystem/,
    mutate: (find) => {
      (mainContainer(find('StatefulSet', 'felt-table-worker'))['securityContext'] as Record<string, unknown>)[
        'readOnlyRootFilesystem'
      ] = false;
    },
  },
];

describe('the validator rejects broken manifests', () => {
  const run = async (check: Check, objects: RenderedObject[]): Promise<string[]> => {
    switch (check) {
      case 'schema':
        return format(await schemaFindings(objects));
      case 'strict':
        return format(strictFieldFindings(objects));
      case 'refs':
        return format(referenceFindings(objects, defaultReferenceContext()));
      case 'security':
        return format(podSecurityFindings(objects));
    }
  };

  it.each(BREAKAGES)('$what', async ({ check, expected, mutate }) => {
    const objects = structuredClone(base.objects);
    mutate((kind, name) => get(kind, name, objects));
    const findings = await run(check, objects);
    expect(
      findings.some((f) => expected.test(f)),
      findings.join('\n') || '(no findings)',
    ).toBe(true);
    // The same check passes on the untouched base, so the finding is caused by the breakage alone.
    expect(await run(check, base.objects)).toEqual([]);
  });

  it('refuses a workload kind it cannot schema-check instead of skipping it', async () => {
    const objects: RenderedObject[] = [
      { source: 'x.yaml#0', object: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } } },
    ];
    expect(format(await schemaFindings(objects))).toEqual([
      'x.yaml#0 Widget/w: unknown apiVersion/kind example.com/v1/Widget',
    ]);
    expect(strictFieldFindings(objects).map((f) => f.message)).toEqual([
      'unknown apiVersion/kind example.com/v1/Widget',
    ]);
    expect(objects.filter((r) => isWorkload(r.object))).toEqual([]);
  });

  it('finds security problems in init containers too', () => {
    const objects = structuredClone(base.objects);
    const spec = podSpec(get('Deployment', 'felt-lobby', objects))!;
    spec.initContainers = [{ name: 'wait', image: 'felt', command: ['true'] }];
    const findings = format(podSecurityFindings(objects));
    expect(allContainers(spec).map((c) => c.name)).toEqual(['wait', 'lobby']);
    expect(findings).toContain('base/lobby.yaml#0 Deployment/felt-lobby: container "wait" allows privilege escalation');
  });
});

describe('the offline kustomize renderer', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'felt-k8s-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const write = (files: Record<string, string>): string => {
    const d = mkdtempSync(join(dir, 'case-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(d, name), text);
    return d;
  };
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  LOG_LEVEL: info\n';

  it('refuses kustomize fields it does not implement rather than ignoring them', () => {
    const d = write({
      'kustomization.yaml': 'resources: [cm.yaml]\npatches:\n  - path: p.yaml\n',
      'cm.yaml': cm,
    });
    expect(() => renderKustomization(d)).toThrow(
      expect.objectContaining({ code: ManifestErrorCode.UNSUPPORTED_KUSTOMIZE_FIELD }) as Error,
    );
  });

  it('reports YAML files the kustomization does not list', () => {
    const d = write({ 'kustomization.yaml': 'resources: [cm.yaml]\n', 'cm.yaml': cm, 'forgotten.yaml': cm });
    expect(renderKustomization(d).unlistedFiles).toEqual(['forgotten.yaml']);
  });

  it('fails on invalid YAML with the file and document named', () => {
    const d = write({ 'kustomization.yaml': 'resources: [cm.yaml]\n', 'cm.yaml': `${cm}---\nkind: [unclosed\n` });
    let caught: unknown;
    try {
      renderKustomization(d);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ManifestError);
    expect((caught as ManifestError).code).toBe(ManifestErrorCode.YAML_PARSE);
    expect((caught as ManifestError).file).toBe('cm.yaml#1');
  });

  it('renders a base directory first, then applies the overlay on top, naming sources from the root', () => {
    const root = write({});
    const d = (sub: string, files: Record<string, string>): void => {
      mkdirSync(join(root, sub), { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(root, sub, name), text);
    };
    d('base', {
      'kustomization.yaml': 'namespace: a\nresources: [cm.yaml]\nimages:\n  - name: felt\n    newTag: "1"\n',
      'cm.yaml': cm,
      'pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: []\n',
    });
    d('ov', { 'kustomization.yaml': 'namespace: b\nresources: [../base]\n' });
    const r = renderKustomization(join(root, 'ov'), { sourceRoot: root });
    expect(r.objects.map((o) => [o.source, o.object.metadata.namespace])).toEqual([['base/cm.yaml#0', 'b']]);
    expect(r.unlistedFiles).toEqual(['base/pod.yaml']);
  });

  it('the base alone lacks the Secret its workloads need: deploy an overlay', () => {
    const alone = renderKustomization(baseDir);
    expect(alone.objects.some((o) => o.object.kind === 'Secret')).toBe(false);
    expect(format(referenceFindings(alone.objects, defaultReferenceContext()))).toContain(
      'table-worker.yaml#0 StatefulSet/felt-table-worker: container "table-worker" env DATABASE_URL names missing Secret key felt-secrets/DATABASE_URL',
    );
  });

  it('applies namespace, secretGenerator and image overrides the way kustomize does', () => {
    const d = write({
      'kustomization.yaml': [
        'namespace: ns1',
        'resources: [cm.yaml, pod.yaml]',
        'secretGenerator:',
        '  - name: s',
        '    envs: [s.env]',
        '    literals: [EXTRA=x=y]',
        'generatorOptions:',
        '  disableNameSuffixHash: true',
        'images:',
        '  - name: felt',
        '    newName: registry.example.com:5000/felt',
        '    newTag: "2.0"',
      ].join('\n'),
      'cm.yaml': cm,
      'pod.yaml':
        'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: a\n      image: felt:1.0\n',
      's.env': '# comment\n\nDATABASE_URL=postgresql://u@h/db?x=1\n',
    });
    const r = renderKustomization(d);
    expect(r.objects.map((o) => o.object.metadata.namespace)).toEqual(['ns1', 'ns1', 'ns1']);
    expect(get('Pod', 'p', r.objects)['spec']).toMatchObject({
      containers: [{ image: 'registry.example.com:5000/felt:2.0' }],
    });
    const data = (get('Secret', 's', r.objects) as unknown as ISecret).data ?? {};
    expect(Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]))).toEqual({
      DATABASE_URL: 'postgresql://u@h/db?x=1',
      EXTRA: 'x=y',
    });
  });
});
