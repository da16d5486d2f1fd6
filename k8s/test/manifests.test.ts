// The example overlay as rendered: every check it must pass, and how it wires the services together.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// Test-only: the ConfigMap's values are checked with the same zod pieces the services build their
// env schemas from.
import {
  ConfigError,
  commonEnv,
  envFlag,
  envList,
  envPort,
  envHandsQueues,
  envPositiveInt,
  parseEnv,
  registryEnv,
} from '@felt/platform';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { ICertificate } from '@kubernetes-models/cert-manager/cert-manager.io/v1/Certificate';
import {
  PENDING_ENV,
  STANDARD_ENV,
  kustomizeNameHash,
  allContainers,
  contractEnvVars,
  isWorkload,
  podSpec,
  renderKustomization,
  repoRoot,
  validateRendered,
  type K8sObject,
  type RenderResult,
} from '../src/index.js';
import {
  config,
  containerOf,
  envOf,
  example,
  format,
  generated,
  get,
  SERVICES,
  templateOf,
} from './support/manifests.js';

let base: RenderResult;
beforeAll(() => {
  base = example();
});

describe('k8s/overlays/example (the base plus its Secret and image)', () => {
  it('passes every offline check: schema, unknown fields, cross-references, pod security', async () => {
    expect(format(await validateRendered(base))).toEqual([]);
  });

  it('renders the whole cluster and lists every manifest file', () => {
    const names = base.objects
      .map(
        (r) => `${r.object.kind}/${r.object.metadata.name.replace(/^felt-config-[a-z0-9]{10}$/, 'felt-config-<hash>')}`,
      )
      .sort();
    expect(names).toEqual(
      [
        'Certificate/felt-gateway-grpc',
        'Certificate/felt-grpc-ca',
        'Certificate/felt-worker-grpc',
        'ConfigMap/felt-config-<hash>',
        'ConfigMap/felt-grafana-dashboard',
        'CronJob/felt-redis-migrate',
        'Deployment/felt-gateway',
        'Deployment/felt-lobby',
        'Deployment/felt-persister',
        'HorizontalPodAutoscaler/felt-gateway',
        'HorizontalPodAutoscaler/felt-lobby',
        'Ingress/felt',
        'Issuer/felt-grpc-ca',
        'Issuer/felt-selfsigned',
        'Job/felt-migrate',
        'Namespace/felt',
        'NetworkPolicy/felt-allow-dns',
        'NetworkPolicy/felt-allow-ingress-controller',
        'NetworkPolicy/felt-allow-monitoring',
        'NetworkPolicy/felt-allow-monitoring-lobby',
        'NetworkPolicy/felt-default-deny',
        'NetworkPolicy/felt-egress-otlp',
        'NetworkPolicy/felt-egress-postgres',
        'NetworkPolicy/felt-egress-redis',
        'NetworkPolicy/felt-gateway-to-workers',
        'NetworkPolicy/felt-workers-from-gateways',
        'NetworkPolicy/felt-workers-to-workers',
        'PodDisruptionBudget/felt-gateway',
        'PodDisruptionBudget/felt-lobby',
        'PodDisruptionBudget/felt-table-worker',
        'PodMonitor/felt-gateway',
        'PodMonitor/felt-lobby',
        'PodMonitor/felt-persister',
        'PodMonitor/felt-table-worker',
        'PrometheusRule/felt',
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

  it('wires liveness to /healthz and readiness to /readyz on each service’s ops port (the lobby’s internal one)', () => {
    for (const s of SERVICES) {
      const c = containerOf(get(s.kind, s.name));
      expect(c.livenessProbe?.httpGet, s.name).toMatchObject({ path: '/healthz', port: s.opsPort });
      expect(c.readinessProbe?.httpGet, s.name).toMatchObject({ path: '/readyz', port: s.opsPort });
      expect(c.startupProbe?.httpGet, s.name).toMatchObject({ path: '/healthz', port: s.opsPort });
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
      const annotations = templateOf(o).metadata.annotations ?? {};
      expect(annotations['prometheus.io/scrape']).toBe('true');
      expect(annotations['prometheus.io/path']).toBe('/metrics');
      expect(annotations['prometheus.io/port']).toBe(String(c.ports?.find((p) => p.name === s.opsPort)?.containerPort));
    }
  });

  it('routes the public ports only: the Ingress never reaches the lobby’s ops port or a worker', () => {
    const ing = get('Ingress', 'felt') as unknown as IIngress;
    expect(ing.spec?.ingressClassName).toBe('nginx');
    for (const path of ing.spec?.rules?.flatMap((r) => r.http?.paths ?? []) ?? []) {
      const svc = get('Service', path.backend.service!.name) as unknown as IService;
      const port = svc.spec?.ports?.find((p) => p.name === path.backend.service?.port?.name);
      expect(port?.targetPort, path.path).toBe('http');
      expect(svc.metadata?.name).not.toBe('felt-table-worker');
    }
    const lobbyPorts = (get('Service', 'felt-lobby') as unknown as IService).spec?.ports?.map((p) => p.name);
    expect(lobbyPorts).toEqual(['http', 'ops']);
  });

  it('names each worker by its pod and advertises its stable DNS name under the headless Service', () => {
    const sts = get('StatefulSet', 'felt-table-worker');
    const serviceName = (sts['spec'] as { serviceName: string }).serviceName;
    const svc = get('Service', serviceName) as unknown as IService;
    expect(svc.spec?.clusterIP).toBe('None');
    expect(svc.spec?.publishNotReadyAddresses).toBe(true);
    const byName = envOf(containerOf(sts));
    expect(byName.get('WORKER_ID')?.valueFrom?.fieldRef?.fieldPath).toBe('metadata.name');
    expect(byName.get('POD_NAMESPACE')?.valueFrom?.fieldRef?.fieldPath).toBe('metadata.namespace');
    expect(byName.get('WORKER_ADVERTISE_ADDR')?.value).toBe(
      `$(WORKER_ID).${serviceName}.$(POD_NAMESPACE).svc.cluster.local:${config()['WORKER_GRPC_PORT']}`,
    );
  });

  it('keeps secrets in the Secret, settings in the ConfigMap, and gives each workload only the keys it reads', () => {
    const secret = get('Secret', 'felt-secrets') as unknown as ISecret;
    expect(Object.keys(secret.data ?? {}).sort()).toEqual(['DATABASE_URL', 'FELT_SESSION_SECRET', 'REDIS_URL']);
    // The committed example must not carry a usable session key: a forgotten secrets.env fails at start-up.
    expect(Buffer.from(secret.data?.['FELT_SESSION_SECRET'] ?? '', 'base64').toString()).toBe('');
    expect(Object.keys(config())).not.toContain('FELT_SESSION_SECRET');
    expect(Object.keys(config())).not.toContain('DATABASE_URL');
    // A Redis URL carries the password (or ACL user) and may be rediss://: a secret.
    expect(Object.keys(config())).not.toContain('REDIS_URL');
    expect(Buffer.from(secret.data?.['REDIS_URL'] ?? '', 'base64').toString()).toMatch(/^rediss:\/\/[^:@/]+:[^@]+@/);

    const secretKeysOf = (c: IContainer): string[] => {
      const whole = (c.envFrom ?? []).some((r) => r.secretRef?.name === 'felt-secrets');
      const keys = (c.env ?? []).flatMap((e) =>
        e.valueFrom?.secretKeyRef?.name === 'felt-secrets' ? [e.valueFrom.secretKeyRef.key] : [],
      );
      return whole ? [...Object.keys(secret.data ?? {}), ...keys] : keys;
    };
    const expected: [string, string, string[]][] = [
      ['Deployment', 'felt-lobby', ['DATABASE_URL', 'FELT_SESSION_SECRET', 'REDIS_URL']],
      ['Deployment', 'felt-gateway', ['FELT_SESSION_SECRET', 'REDIS_URL']],
      ['StatefulSet', 'felt-table-worker', ['DATABASE_URL', 'REDIS_URL']],
      ['Deployment', 'felt-persister', ['DATABASE_URL', 'REDIS_URL']],
      ['Job', 'felt-migrate', ['DATABASE_URL']],
    ];
    for (const [kind, name, keys] of expected) {
      const c = containerOf(get(kind, name));
      expect(secretKeysOf(c).sort(), name).toEqual(keys);
      if (kind !== 'Job')
        expect(
          c.envFrom?.map((r) => r.configMapRef?.name),
          name,
        ).toContain(generated('ConfigMap', 'felt-config').metadata.name);
    }
  });

  it('sets only values the services accept (their shared env schemas from @felt/platform)', () => {
    const shape = {
      ...commonEnv,
      ...registryEnv,
      LOBBY_PORT: envPort,
      LOBBY_OPS_PORT: envPort,
      GATEWAY_PORT: envPort,
      WORKER_GRPC_PORT: envPort,
      WORKER_HTTP_PORT: envPort,
      PERSISTER_HTTP_PORT: envPort,
      FELT_COOKIE_SECURE: envFlag,
      FELT_SIGNUP_GRANT: envPositiveInt,
      GATEWAY_MAX_PAYLOAD: envPositiveInt,
      GATEWAY_MAX_BLIND_PAYLOAD: envPositiveInt,
      GATEWAY_RATE_PER_SEC: envPositiveInt,
      GATEWAY_RATE_BURST: envPositiveInt,
      GATEWAY_MAX_SOCKETS: envPositiveInt,
      GATEWAY_TRUST_PROXY: envPort,
      FELT_TRUST_PROXY: envPositiveInt,
      GATEWAY_ALLOWED_ORIGINS: envList,
      FELT_GATEWAY_URLS: envList,
      FELT_HANDS_QUEUE: envList,
      FELT_HANDS_QUEUES: envHandsQueues,
      FELT_LEASE_TTL_MS: envPositiveInt,
      FELT_LEASE_WAIT_MS: envPositiveInt,
      FELT_DRAIN_DEADLINE_MS: envPositiveInt,
    };
    const all = config();
    // OpenTelemetry's standard variables are the SDK's to parse: checked in their own test.
    const data = Object.fromEntries(Object.entries(all).filter(([k]) => !STANDARD_ENV.has(k)));
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
    const hpa = (name: string): IHorizontalPodAutoscaler =>
      get('HorizontalPodAutoscaler', name) as unknown as IHorizontalPodAutoscaler;
    // The lobby and the gateways are autoscaled: the HPA's floor is their replica count.
    expect(hpa('felt-lobby').spec?.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa('felt-gateway').spec?.minReplicas).toBeGreaterThanOrEqual(2);
    expect(replicas('StatefulSet', 'felt-table-worker')).toBeGreaterThanOrEqual(2);
    expect(replicas('Deployment', 'felt-persister')).toBeGreaterThanOrEqual(1);
    for (const name of ['felt-lobby', 'felt-gateway', 'felt-table-worker'])
      expect(get('PodDisruptionBudget', name)['spec']).toMatchObject({ maxUnavailable: 1 });
  });

  it('autoscales gateways on CPU and sockets per pod, below the socket cap, and the lobby on CPU', () => {
    const hpa = (name: string): IHorizontalPodAutoscaler =>
      get('HorizontalPodAutoscaler', name) as unknown as IHorizontalPodAutoscaler;
    const gw = hpa('felt-gateway');
    expect(gw.spec?.scaleTargetRef).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'felt-gateway' });
    expect(gw.spec?.metrics?.map((m) => m.resource?.name ?? m.pods?.metric.name)).toEqual([
      'cpu',
      'felt_gateway_sockets',
    ]);
    const perPod = Number(gw.spec?.metrics?.find((m) => m.type === 'Pods')?.pods?.target.averageValue);
    // Scale out well before FeltGatewaySocketsNearCap (80 % of GATEWAY_MAX_SOCKETS) fires.
    expect(perPod).toBeGreaterThan(0);
    expect(perPod).toBeLessThanOrEqual(0.7 * Number(config()['GATEWAY_MAX_SOCKETS']));
    // Scaling down drops sockets: slowly.
    expect(gw.spec?.behavior?.scaleDown?.stabilizationWindowSeconds).toBeGreaterThanOrEqual(300);
    const lobby = hpa('felt-lobby');
    expect(lobby.spec?.metrics?.map((m) => m.resource?.name)).toEqual(['cpu']);
    expect(lobby.spec?.scaleTargetRef.name).toBe('felt-lobby');
  });

  it('spreads every service across zones and then hosts', () => {
    for (const s of SERVICES) {
      const spread = (templateOf(get(s.kind, s.name)).spec['topologySpreadConstraints'] ?? []) as {
        topologyKey: string;
        labelSelector: { matchLabels: Record<string, string> };
      }[];
      expect(
        spread.map((t) => t.topologyKey),
        s.name,
      ).toEqual(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
      const labels = (templateOf(get(s.kind, s.name)) as unknown as { metadata: { labels: Record<string, string> } })
        .metadata.labels;
      for (const t of spread) expect(labels).toMatchObject(t.labelSelector.matchLabels);
    }
  });

  it('rolls the pods when a config value changes (content-hashed ConfigMap name)', () => {
    const copy = mkdtempSync(join(tmpdir(), 'felt-k8s-roll-'));
    try {
      for (const d of ['base', 'overlays', 'monitoring', 'components'])
        cpSync(join(repoRoot, 'k8s', d), join(copy, d), { recursive: true });
      const envFile = join(copy, 'base', 'config.env');
      writeFileSync(envFile, readFileSync(envFile, 'utf8').replace('LOG_LEVEL=info', 'LOG_LEVEL=debug'));
      const changed = renderKustomization(join(copy, 'overlays', 'example'), {
        fileOverrides: { 'secrets.env': 'secrets.env.example' },
      }).objects;
      const before = generated('ConfigMap', 'felt-config').metadata.name;
      const after = generated('ConfigMap', 'felt-config', changed).metadata.name;
      expect(after).not.toBe(before);
      expect(config(changed)['LOG_LEVEL']).toBe('debug');
      for (const s of SERVICES) {
        const refs = containerOf(get(s.kind, s.name, changed)).envFrom?.map((r) => r.configMapRef?.name);
        expect(refs, s.name).toContain(after);
      }
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
    // The hash is kustomize's own (api/hasher's test vectors).
    const cm = (data: Record<string, string>): K8sObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: '' },
      data,
    });
    expect(kustomizeNameHash(cm({ one: '' }))).toBe('9g67k2htb6');
    expect(kustomizeNameHash(cm({ two: '2', one: '', three: '3' }))).toBe('f5h7t85m9b');
    expect(
      kustomizeNameHash({
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'my-type',
        metadata: { name: '' },
        data: { one: '' },
      }),
    ).toBe('74bd68bm66');
  });

  it('sets a Postgres pool size per service, and none on the gateways', () => {
    const pool = (kind: string, name: string): number | undefined => {
      const v = envOf(containerOf(get(kind, name))).get('DATABASE_POOL_MAX')?.value;
      return v === undefined ? undefined : Number(v);
    };
    expect(pool('Deployment', 'felt-lobby')).toBe(10);
    expect(pool('StatefulSet', 'felt-table-worker')).toBe(5);
    // Above the persister's job concurrency (4 by default).
    expect(pool('Deployment', 'felt-persister')).toBeGreaterThan(4);
    expect(pool('Deployment', 'felt-gateway')).toBeUndefined();
  });

  it('mounts each side’s gRPC certificates for mutual TLS, issued by cert-manager for the advertised names', () => {
    const dir = '/var/run/secrets/felt/grpc';
    const sides = [
      ['StatefulSet', 'felt-table-worker', 'felt-worker-grpc-tls', 'felt-worker-grpc'],
      ['Deployment', 'felt-gateway', 'felt-gateway-grpc-tls', 'felt-gateway-grpc'],
    ] as const;
    for (const [kind, name, secretName, certName] of sides) {
      const o = get(kind, name);
      const c = containerOf(o);
      const env = envOf(c);
      expect(env.get('FELT_GRPC_TLS_CA')?.value, name).toBe(`${dir}/ca.crt`);
      expect(env.get('FELT_GRPC_TLS_CERT')?.value, name).toBe(`${dir}/tls.crt`);
      expect(env.get('FELT_GRPC_TLS_KEY')?.value, name).toBe(`${dir}/tls.key`);
      const mount = c.volumeMounts?.find((m) => m.mountPath === dir);
      expect(mount?.readOnly, name).toBe(true);
      expect(mount?.subPath, name).toBeUndefined(); // a subPath mount never sees a renewed certificate
      const volume = podSpec(o)?.volumes?.find((v) => v.name === mount?.name);
      expect(volume?.secret?.secretName, name).toBe(secretName);
      expect(volume?.secret?.defaultMode, name).toBe(0o440);
      const cert = get('Certificate', certName) as unknown as ICertificate;
      expect(cert.spec?.secretName).toBe(secretName);
      expect(cert.spec?.issuerRef.name).toBe('felt-grpc-ca');
    }
    // The workers' certificate names every address gateways dial.
    const addr = envOf(containerOf(get('StatefulSet', 'felt-table-worker'))).get('WORKER_ADVERTISE_ADDR')?.value ?? '';
    const host = addr.replace('$(WORKER_ID)', 'felt-table-worker-7').replace('$(POD_NAMESPACE)', 'felt').split(':')[0]!;
    const names = (get('Certificate', 'felt-worker-grpc') as unknown as ICertificate).spec?.dnsNames ?? [];
    expect(names.some((n) => (n.startsWith('*.') ? host.slice(host.indexOf('.')) === n.slice(1) : n === host))).toBe(
      true,
    );
    const usages = (cert: string): string[] => (get('Certificate', cert) as unknown as ICertificate).spec?.usages ?? [];
    expect(usages('felt-worker-grpc')).toContain('server auth');
    expect(usages('felt-gateway-grpc')).toContain('client auth');
    expect((get('Certificate', 'felt-grpc-ca') as unknown as ICertificate).spec?.isCA).toBe(true);
  });

  it('orders the migration Job before the workloads under Argo CD and Helm', () => {
    const job = get('Job', 'felt-migrate');
    expect(job.metadata.annotations).toMatchObject({
      'argocd.argoproj.io/hook': 'Sync',
      'argocd.argoproj.io/hook-delete-policy': 'BeforeHookCreation',
      'helm.sh/hook': 'pre-install,pre-upgrade',
      'helm.sh/hook-delete-policy': 'before-hook-creation',
    });
    const jobWave = Number(job.metadata.annotations?.['argocd.argoproj.io/sync-wave']);
    for (const s of SERVICES) {
      const wave = Number(get(s.kind, s.name).metadata.annotations?.['argocd.argoproj.io/sync-wave']);
      expect(wave, s.name).toBeGreaterThan(jobWave);
    }
    // Nothing the Job needs is in a later wave than the Job.
    for (const r of base.objects.filter((x) => ['Secret', 'ConfigMap', 'Namespace'].includes(x.object.kind)))
      expect(Number(r.object.metadata.annotations?.['argocd.argoproj.io/sync-wave'] ?? 0)).toBeLessThan(jobWave);
  });

  it('pauses a terminating gateway while its endpoint deregisters, within its grace period', () => {
    const gw = get('Deployment', 'felt-gateway');
    const pause = containerOf(gw).lifecycle?.preStop?.exec?.command;
    expect(pause?.[0]).toBe('sleep');
    const seconds = Number(pause?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(5);
    // The pause, then the batched socket closes after SIGTERM, fit in the grace period.
    expect(templateOf(gw).spec['terminationGracePeriodSeconds']).toBeGreaterThanOrEqual(seconds + 20);
  });

  it('sets standard OpenTelemetry variables in the example overlay, with values the SDK accepts', () => {
    const data = config();
    const otel = Object.keys(data).filter((k) => k.startsWith('OTEL_'));
    expect(otel.sort()).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'OTEL_RESOURCE_ATTRIBUTES',
      'OTEL_TRACES_SAMPLER',
      'OTEL_TRACES_SAMPLER_ARG',
    ]);
    expect(new URL(data['OTEL_EXPORTER_OTLP_ENDPOINT']!).pathname).toBe('/'); // the exporter appends /v1/traces
    expect([
      'always_on',
      'always_off',
      'traceidratio',
      'parentbased_always_on',
      'parentbased_always_off',
      'parentbased_traceidratio',
    ]).toContain(data['OTEL_TRACES_SAMPLER']);
    const ratio = Number(data['OTEL_TRACES_SAMPLER_ARG']);
    expect(ratio >= 0 && ratio <= 1).toBe(true);
    expect(data['OTEL_RESOURCE_ATTRIBUTES']).toMatch(/^[\w.]+=[^,=]+(,[\w.]+=[^,=]+)*$/);
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

  it('lists as pending only variables the contracts do not list yet, and uses each of them', () => {
    const names = contractEnvVars(readFileSync(join(repoRoot, 'docs/dev/contracts.md'), 'utf8'));
    // Once docs/dev/contracts.md lists one, remove it from PENDING_ENV in k8s/src/index.ts.
    expect([...PENDING_ENV.keys()].filter((n) => names.has(n))).toEqual([]);
    const set = new Set<string>(Object.keys(config()));
    for (const r of base.objects) {
      if (!isWorkload(r.object)) continue;
      for (const c of allContainers(podSpec(r.object)!)) for (const e of c.env ?? []) set.add(e.name);
    }
    expect([...PENDING_ENV.keys()].filter((n) => !set.has(n))).toEqual([]);
  });
});
