import { beforeAll, describe, expect, it } from 'vitest';
import {
  baseDir,
  connectionAllowed,
  inCidr,
  podLabels,
  podSpec,
  renderDeployment,
  renderKustomization,
  type Endpoint,
  type K8sObject,
} from '../src/index.js';

// Who may reach whom under the NetworkPolicies, evaluated offline with Kubernetes' semantics
// (k8s/src/network-policy.ts): the example overlay (data stores outside the cluster, by ipBlock) and the
// base (data stores as labelled pods in any namespace).

let example: K8sObject[];
let base: K8sObject[];
beforeAll(() => {
  example = renderDeployment().objects.map((r) => r.object);
  base = renderKustomization(baseDir).objects.map((r) => r.object);
});

const pod = (objects: K8sObject[], kind: string, name: string): Endpoint => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`${kind}/${name} not rendered`);
  return {
    name,
    namespace: o.metadata.namespace ?? 'default',
    labels: podLabels(o),
    ports: podSpec(o)!.containers.flatMap((c) => c.ports ?? []),
  };
};

const other = (
  name: string,
  namespace: string,
  labels: Record<string, string>,
  ports: Endpoint['ports'] = [],
): Endpoint => ({
  name,
  namespace,
  labels,
  ports,
});
const ingressController = other('ingress-nginx-controller', 'ingress-nginx', {
  'app.kubernetes.io/name': 'ingress-nginx',
});
const prometheus = other('prometheus', 'monitoring', { 'app.kubernetes.io/name': 'prometheus' });
const kubeDns = other('coredns', 'kube-system', { 'k8s-app': 'kube-dns' }, [
  { name: 'dns', containerPort: 53, protocol: 'UDP' },
  { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
]);
const strayInNamespace = other('debug', 'felt', { app: 'debug' });
const strayElsewhere = other('web', 'shop', { app: 'web' });
const collector = other('otel-collector', 'observability', { app: 'otel-collector' }, [{ containerPort: 4318 }]);
const managedPostgres: Endpoint = { name: 'managed postgres', ip: '192.0.2.10' };
const managedRedis: Endpoint = { name: 'managed redis', ip: '192.0.2.20' };
const somewhereElse: Endpoint = { name: 'the internet', ip: '198.51.100.7' };

describe('NetworkPolicies of the example overlay', () => {
  const p = (kind: string, name: string): Endpoint => pod(example, kind, name);
  const lobby = (): Endpoint => p('Deployment', 'felt-lobby');
  const gateway = (): Endpoint => p('Deployment', 'felt-gateway');
  const worker = (): Endpoint => p('StatefulSet', 'felt-table-worker');
  const persister = (): Endpoint => p('Deployment', 'felt-persister');
  const migrate = (): Endpoint => p('Job', 'felt-migrate');
  const redisMigrate = (): Endpoint => p('CronJob', 'felt-redis-migrate');
  const services = (): Endpoint[] => [lobby(), gateway(), worker(), persister()];
  const can = (from: Endpoint, to: Endpoint, port: number | string, protocol = 'TCP'): boolean =>
    connectionAllowed(example, from, to, port, protocol);

  it('denies by default: a pod nothing names reaches no Felt pod and is reached by none', () => {
    for (const to of [...services(), migrate()]) {
      for (const port of to.ports ?? []) {
        expect(can(strayInNamespace, to, port.containerPort), `debug → ${to.name}:${port.name}`).toBe(false);
        expect(can(strayElsewhere, to, port.containerPort), `shop → ${to.name}:${port.name}`).toBe(false);
      }
    }
    for (const from of [...services(), migrate(), redisMigrate()]) {
      expect(can(from, somewhereElse, 443), `${from.name} → internet`).toBe(false);
      expect(can(from, strayElsewhere, 80), `${from.name} → shop`).toBe(false);
    }
  });

  it('lets gateways, and workers (tournament directors and their tables), and no one else dial the workers’ gRPC port', () => {
    expect(can(gateway(), worker(), 'grpc')).toBe(true);
    expect(can(worker(), worker(), 'grpc')).toBe(true);
    expect(can(gateway(), worker(), 'http')).toBe(false);
    expect(can(worker(), worker(), 'http')).toBe(false);
    expect(can(worker(), gateway(), 'ws')).toBe(false);
    for (const from of [lobby(), persister(), migrate(), ingressController, prometheus])
      expect(can(from, worker(), 'grpc'), `${from.name} → worker grpc`).toBe(false);
  });

  it('lets the ingress controller reach the lobby’s and the gateways’ public ports only', () => {
    expect(can(ingressController, lobby(), 'http')).toBe(true);
    expect(can(ingressController, gateway(), 'http')).toBe(true);
    expect(can(ingressController, lobby(), 'ops')).toBe(false);
    expect(can(ingressController, worker(), 'http')).toBe(false);
    expect(can(ingressController, persister(), 'http')).toBe(false);
  });

  it('lets the monitoring namespace scrape each metrics port, and nothing else', () => {
    expect(can(prometheus, lobby(), 'ops')).toBe(true);
    expect(can(prometheus, gateway(), 'http')).toBe(true);
    expect(can(prometheus, worker(), 'http')).toBe(true);
    expect(can(prometheus, persister(), 'http')).toBe(true);
    expect(can(prometheus, lobby(), 'http')).toBe(false);
    expect(can(prometheus, worker(), 'grpc')).toBe(false);
  });

  it('lets each service reach Redis, and Postgres only those that use it (never the gateways)', () => {
    for (const s of services()) expect(can(s, managedRedis, 6379), `${s.name} → redis`).toBe(true);
    expect(can(migrate(), managedRedis, 6379)).toBe(false);
    // The key-layout move reaches Redis and nothing else.
    expect(can(redisMigrate(), managedRedis, 6379)).toBe(true);
    expect(can(redisMigrate(), managedPostgres, 5432)).toBe(false);
    expect(can(redisMigrate(), collector, 4318)).toBe(false);
    for (const s of [lobby(), worker(), persister(), migrate()])
      expect(can(s, managedPostgres, 5432), `${s.name} → postgres`).toBe(true);
    expect(can(gateway(), managedPostgres, 5432)).toBe(false);
    // Only the data stores' addresses and ports.
    expect(can(worker(), { name: 'elsewhere', ip: '192.0.2.99' }, 6379)).toBe(false);
    expect(can(worker(), managedRedis, 6380)).toBe(false);
    expect(can(lobby(), managedPostgres, 6379)).toBe(false);
  });

  it('lets every pod resolve names, and traces leave for the collector', () => {
    for (const s of [...services(), migrate()]) {
      expect(can(s, kubeDns, 53, 'UDP'), `${s.name} dns/udp`).toBe(true);
      expect(can(s, kubeDns, 53, 'TCP'), `${s.name} dns/tcp`).toBe(true);
      expect(can(s, kubeDns, 80), `${s.name} kube-dns:80`).toBe(false);
    }
    for (const s of services()) expect(can(s, collector, 4318), `${s.name} → collector`).toBe(true);
    expect(can(migrate(), collector, 4318)).toBe(false);
  });
});

describe('NetworkPolicies of the base (data stores as labelled pods)', () => {
  const can = (from: Endpoint, to: Endpoint, port: number | string): boolean => connectionAllowed(base, from, to, port);
  const redis = other('redis-0', 'data', { 'app.kubernetes.io/name': 'redis' }, [
    { name: 'redis', containerPort: 6379 },
  ]);
  const postgres = other('pg-0', 'data', { 'app.kubernetes.io/name': 'postgresql' }, [{ containerPort: 5432 }]);

  it('reaches Redis and Postgres pods by their labels in any namespace, and no other pod', () => {
    const worker = pod(base, 'StatefulSet', 'felt-table-worker');
    const gateway = pod(base, 'Deployment', 'felt-gateway');
    expect(can(worker, redis, 6379)).toBe(true);
    expect(can(worker, postgres, 5432)).toBe(true);
    expect(can(gateway, redis, 6379)).toBe(true);
    expect(can(gateway, postgres, 5432)).toBe(false);
    expect(can(worker, other('x', 'data', { app: 'x' }), 6379)).toBe(false);
    // No ipBlock in the base: nothing outside the cluster.
    expect(can(worker, { name: 'ip', ip: '192.0.2.20' }, 6379)).toBe(false);
  });
});

describe('the NetworkPolicy evaluator', () => {
  it('matches IPv4 CIDRs', () => {
    expect(inCidr('10.1.2.3', '10.0.0.0/8')).toBe(true);
    expect(inCidr('11.1.2.3', '10.0.0.0/8')).toBe(false);
    expect(inCidr('192.0.2.10', '192.0.2.10/32')).toBe(true);
    expect(inCidr('192.0.2.11', '192.0.2.10/32')).toBe(false);
    expect(inCidr('1.2.3.4', '0.0.0.0/0')).toBe(true);
  });

  it('leaves a pod open when no policy selects it, and applies ipBlock excepts', () => {
    const np = (spec: Record<string, unknown>): K8sObject => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'p', namespace: 'a' },
      spec,
    });
    const a = other('a', 'a', { role: 'a' }, [{ name: 'web', containerPort: 80 }]);
    const b = other('b', 'a', { role: 'b' }, [{ name: 'web', containerPort: 80 }]);
    expect(connectionAllowed([], a, b, 80)).toBe(true);
    const policies = [
      np({ podSelector: { matchLabels: { role: 'b' } }, policyTypes: ['Ingress'] }),
      np({
        podSelector: { matchLabels: { role: 'a' } },
        policyTypes: ['Egress'],
        egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.9.0.0/16'] } }], ports: [{ port: 443 }] }],
      }),
    ];
    expect(connectionAllowed(policies, a, b, 'web')).toBe(false);
    expect(connectionAllowed(policies, b, a, 'web')).toBe(true);
    expect(connectionAllowed(policies, a, { name: 'x', ip: '10.1.0.1' }, 443)).toBe(true);
    expect(connectionAllowed(policies, a, { name: 'x', ip: '10.9.0.1' }, 443)).toBe(false);
    expect(connectionAllowed(policies, a, { name: 'x', ip: '10.1.0.1' }, 80)).toBe(false);
  });
});
