import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer';
import type { INetworkPolicyPort } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPort';
import { labelSelectorMatches } from './references.js';
import type { K8sObject } from './manifest.js';

/** A pod (or an address outside the cluster) as NetworkPolicies see it. */
export interface Endpoint {
  readonly name: string;
  /** Undefined for an address outside the cluster, which only an ipBlock can match. */
  readonly namespace?: string;
  readonly namespaceLabels?: Readonly<Record<string, string>>;
  readonly labels?: Readonly<Record<string, string>>;
  /** Named container ports, which policies may name instead of numbers. */
  readonly ports?: readonly { readonly name?: string; readonly containerPort: number; readonly protocol?: string }[];
  readonly ip?: string;
}

/**
 * Whether NetworkPolicies let `from` open a connection to `to` on `port` (a number, or a named port of
 * `to`): the egress policies selecting `from` and the ingress policies selecting `to` must both allow
 * it, and a pod no policy of a direction selects is open in that direction (Kubernetes semantics).
 */
export function connectionAllowed(
  policies: readonly K8sObject[],
  from: Endpoint,
  to: Endpoint,
  port: number | string,
  protocol = 'TCP',
): boolean {
  const number = typeof port === 'number' ? port : to.ports?.find((p) => p.name === port)?.containerPort;
  if (number === undefined) return false;
  const nps = policies.filter((p) => p.kind === 'NetworkPolicy') as unknown as (INetworkPolicy & K8sObject)[];
  return (
    directionAllows(nps, 'Egress', from, to, number, protocol) &&
    directionAllows(nps, 'Ingress', to, from, number, protocol)
  );
}

function types(p: INetworkPolicy): string[] {
  if (p.spec?.policyTypes) return p.spec.policyTypes;
  return p.spec?.egress ? ['Ingress', 'Egress'] : ['Ingress'];
}

/** `self` is the pod the policies select; `peer` is the other end. Ports are the destination's. */
function directionAllows(
  policies: readonly (INetworkPolicy & K8sObject)[],
  direction: 'Ingress' | 'Egress',
  self: Endpoint,
  peer: Endpoint,
  port: number,
  protocol: string,
): boolean {
  if (self.namespace === undefined) return true; // outside the cluster: no policy applies
  const applying = policies.filter(
    (p) =>
      p.metadata.namespace === self.namespace &&
      types(p).includes(direction) &&
      labelSelectorMatches(p.spec?.podSelector, self.labels ?? {}),
  );
  if (applying.length === 0) return true;
  const destination = direction === 'Egress' ? peer : self;
  return applying.some((p) =>
    (direction === 'Egress' ? (p.spec?.egress ?? []) : (p.spec?.ingress ?? [])).some((rule) => {
      const peers =
        direction === 'Egress'
          ? (rule as { to?: INetworkPolicyPeer[] }).to
          : (rule as { from?: INetworkPolicyPeer[] }).from;
      const peerOk =
        peers === undefined ||
        peers.length === 0 ||
        peers.some((x) => peerMatches(x, p.metadata.namespace ?? '', peer));
      const portOk =
        rule.ports === undefined ||
        rule.ports.length === 0 ||
        rule.ports.some((x) => portMatches(x, destination, port, protocol));
      return peerOk && portOk;
    }),
  );
}

function peerMatches(peer: INetworkPolicyPeer, policyNamespace: string, e: Endpoint): boolean {
  if (peer.ipBlock)
    return (
      e.ip !== undefined &&
      inCidr(e.ip, peer.ipBlock.cidr) &&
      !(peer.ipBlock.except ?? []).some((c) => inCidr(e.ip!, c))
    );
  if (e.namespace === undefined) return false;
  const nsOk =
    peer.namespaceSelector === undefined
      ? e.namespace === policyNamespace
      : labelSelectorMatches(peer.namespaceSelector, {
          'kubernetes.io/metadata.name': e.namespace,
          ...e.namespaceLabels,
        });
  const podOk = peer.podSelector === undefined || labelSelectorMatches(peer.podSelector, e.labels ?? {});
  return nsOk && podOk;
}

function portMatches(p: INetworkPolicyPort, destination: Endpoint, port: number, protocol: string): boolean {
  if ((p.protocol ?? 'TCP') !== protocol) return false;
  if (p.port === undefined) return true;
  if (typeof p.port === 'string') {
    return (destination.ports ?? []).some(
      (x) => x.name === p.port && x.containerPort === port && (x.protocol ?? 'TCP') === protocol,
    );
  }
  return p.endPort === undefined ? p.port === port : port >= p.port && port <= p.endPort;
}

function ipv4(ip: string): number | undefined {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) return undefined;
  return parts.reduce((acc, n) => acc * 256 + n, 0);
}

/** IPv4 CIDR membership (the manifests use no IPv6 blocks). */
export function inCidr(ip: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const a = ipv4(ip);
  const b = ipv4(base ?? '');
  const bits = Number(bitsText ?? '32');
  if (a === undefined || b === undefined || !(bits >= 0 && bits <= 32)) return false;
  const size = 2 ** (32 - bits);
  return Math.floor(a / size) === Math.floor(b / size);
}
