// What the manifest suites share: the example overlay rendered once per file, and lookups into it.
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import {
  podSpec,
  renderDeployment,
  type Finding,
  type K8sObject,
  type RenderedObject,
  type RenderResult,
} from '../../src/index.js';

let rendered: RenderResult | undefined;

/** k8s/overlays/example (the base plus its Secret and image), rendered on first use. */
export function example(): RenderResult {
  rendered ??= renderDeployment();
  return rendered;
}

export const get = (kind: string, name: string, objects: readonly RenderedObject[] = example().objects): K8sObject => {
  const found = objects.find((r) => r.object.kind === kind && r.object.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} not rendered`);
  return found.object;
};
export const containerOf = (o: K8sObject): IContainer => {
  const c = podSpec(o)?.containers[0];
  if (!c) throw new Error(`${o.kind}/${o.metadata.name} has no container`);
  return c;
};
/** A generated object by its generator name: kustomize appends `-<10-character content hash>`. */
export const generated = (
  kind: string,
  name: string,
  objects: readonly RenderedObject[] = example().objects,
): K8sObject => {
  const found = objects.filter(
    (r) => r.object.kind === kind && new RegExp(`^${name}(-[a-z0-9]{10})?$`).test(r.object.metadata.name),
  );
  if (found.length !== 1) throw new Error(`${kind}/${name}: ${found.length} rendered`);
  return found[0]!.object;
};
export const config = (objects?: readonly RenderedObject[]): Record<string, string> =>
  (generated('ConfigMap', 'felt-config', objects) as unknown as IConfigMap).data ?? {};
export const envOf = (c: IContainer): Map<string, NonNullable<IContainer['env']>[number]> =>
  new Map((c.env ?? []).map((e) => [e.name, e]));
export const templateOf = (
  o: K8sObject,
): { metadata: { annotations?: Record<string, string> }; spec: Record<string, unknown> } =>
  (o['spec'] as { template: { metadata: { annotations?: Record<string, string> }; spec: Record<string, unknown> } })
    .template;
export const format = (findings: Finding[]): string[] => findings.map((f) => `${f.source} ${f.object}: ${f.message}`);

// Each service workspace, the workload that runs it, the variables naming its ports, and the port that
// serves /healthz, /readyz and /metrics (the lobby's internal ops port; the others' `http`).
export const SERVICES = [
  {
    dir: 'services/lobby',
    kind: 'Deployment',
    name: 'felt-lobby',
    ports: { LOBBY_PORT: 'http', LOBBY_OPS_PORT: 'ops' },
    opsPort: 'ops',
  },
  {
    dir: 'services/gateway',
    kind: 'Deployment',
    name: 'felt-gateway',
    ports: { GATEWAY_PORT: 'http' },
    opsPort: 'http',
  },
  {
    dir: 'services/table-worker',
    kind: 'StatefulSet',
    name: 'felt-table-worker',
    ports: { WORKER_GRPC_PORT: 'grpc', WORKER_HTTP_PORT: 'http' },
    opsPort: 'http',
  },
  {
    dir: 'services/persister',
    kind: 'Deployment',
    name: 'felt-persister',
    ports: { PERSISTER_HTTP_PORT: 'http' },
    opsPort: 'http',
  },
] as const;
