import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IIngressBackend } from 'kubernetes-models/networking.k8s.io/v1/IngressBackend';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import type { ILabelSelector } from '@kubernetes-models/apimachinery/apis/meta/v1/LabelSelector';
import type { ICertificate } from '@kubernetes-models/cert-manager/cert-manager.io/v1/Certificate';
import type { IIssuer } from '@kubernetes-models/cert-manager/cert-manager.io/v1/Issuer';
import type { IPodMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { podSpecOf, type K8sObject, type RenderedObject } from './manifest.js';
import { objectLabel, type Finding } from './schema.js';

/** What the reference checks need to know beyond the manifests themselves. */
export interface ReferenceContext {
  /** Every environment variable a Felt process reads (docs/dev/contracts.md). */
  readonly allowedEnv: ReadonlySet<string>;
  /**
   * Variables that exist only to build other values inside the manifest (downward-API helpers such as
   * POD_NAMESPACE), each with the reason it is allowed.
   */
  readonly helperEnv: ReadonlyMap<string, string>;
  /** Secrets the operator creates outside this base (the ingress TLS certificate). */
  readonly externalSecrets: ReadonlySet<string>;
  /**
   * Variables defined by a standard that a library every service loads reads itself (the OpenTelemetry
   * SDK's `OTEL_*`, Node's `NODE_EXTRA_CA_CERTS`), each with where it is defined.
   */
  readonly standardEnv?: ReadonlyMap<string, string>;
  /**
   * Felt variables the manifests set before docs/dev/contracts.md lists them (the services are being
   * taught to read them), each with its meaning. An entry must go once the contracts list it.
   */
  readonly pendingEnv?: ReadonlyMap<string, string>;
}

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob', 'Pod']);

export function isWorkload(o: K8sObject): boolean {
  return WORKLOAD_KINDS.has(o.kind);
}

/** Labels of the pods a workload creates. */
export function podLabels(o: K8sObject): Record<string, string> {
  if (o.kind === 'Pod') return o.metadata.labels ?? {};
  const spec = o['spec'] as Record<string, unknown> | undefined;
  const template =
    o.kind === 'CronJob'
      ? (((spec?.['jobTemplate'] as Record<string, unknown> | undefined)?.['spec'] as Record<string, unknown>)?.[
          'template'
        ] as Record<string, unknown> | undefined)
      : (spec?.['template'] as Record<string, unknown> | undefined);
  const metadata = template?.['metadata'] as { labels?: Record<string, string> } | undefined;
  return metadata?.labels ?? {};
}

export function podSpec(o: K8sObject): IPodSpec | undefined {
  return podSpecOf(o) as IPodSpec | undefined;
}

export function allContainers(spec: IPodSpec): IContainer[] {
  return [...(spec.initContainers ?? []), ...spec.containers];
}

function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v);
}

/**
 * Whether a Kubernetes label selector (matchLabels and matchExpressions) matches a label set. An empty
 * selector matches everything, as in a NetworkPolicy's podSelector or namespaceSelector.
 */
export function labelSelectorMatches(selector: ILabelSelector | undefined, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector?.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector?.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const value = labels[e.key];
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
        if (!has || !values.includes(value ?? '')) return false;
        break;
      case 'NotIn':
        if (has && values.includes(value ?? '')) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** Keys of the Secret a cert-manager Certificate writes (its spec.secretName). */
export const CERTIFICATE_SECRET_KEYS: readonly string[] = ['ca.crt', 'tls.crt', 'tls.key'];

/** A label selector as plain matchLabels; matchExpressions are not used in base and so not evaluated. */
function matchLabelsOf(selector: ILabelSelector | undefined): Record<string, string> | 'unsupported' {
  if (selector?.matchExpressions?.length) return 'unsupported';
  return selector?.matchLabels ?? {};
}

function containerHasPort(c: IContainer, port: number | string): boolean {
  return (c.ports ?? []).some((p) => (typeof port === 'number' ? p.containerPort === port : p.name === port));
}

/**
 * Cross-references between objects: the things `kubectl apply` accepts and the cluster then silently
 * misroutes (a Service selecting no pod, a probe on a port the container doesn't open, an envFrom naming
 * a ConfigMap that doesn't exist, an env var no service reads).
 */
export function referenceFindings(objects: readonly RenderedObject[], ctx: ReferenceContext): Finding[] {
  const findings: Finding[] = [];
  const add = (r: RenderedObject, message: string): void => {
    findings.push({ source: r.source, object: objectLabel(r), message });
  };

  const ns = (o: K8sObject): string => o.metadata.namespace ?? 'default';
  const find = (kind: string, namespace: string, name: string): RenderedObject | undefined =>
    objects.find((r) => r.object.kind === kind && r.object.metadata.name === name && ns(r.object) === namespace);

  const seen = new Set<string>();
  for (const r of objects) {
    const key = `${r.object.apiVersion}/${r.object.kind}/${ns(r.object)}/${r.object.metadata.name}`;
    if (seen.has(key)) add(r, 'duplicate object: another document has the same kind, namespace and name');
    seen.add(key);
  }

  const workloads = objects.filter((r) => isWorkload(r.object));
  const workloadsSelectedBy = (namespace: string, selector: Record<string, string>): RenderedObject[] =>
    workloads.filter((w) => ns(w.object) === namespace && selects(selector, podLabels(w.object)));

  const configMapKeys = (namespace: string, name: string): Set<string> | undefined => {
    const cm = find('ConfigMap', namespace, name)?.object as IConfigMap | undefined;
    return cm ? new Set([...Object.keys(cm.data ?? {}), ...Object.keys(cm.binaryData ?? {})]) : undefined;
  };
  const certificateSecrets = new Map<string, RenderedObject>();
  for (const r of objects) {
    const secretName = (r.object['spec'] as { secretName?: string } | undefined)?.secretName;
    if (r.object.kind === 'Certificate' && r.object.apiVersion.startsWith('cert-manager.io/') && secretName)
      certificateSecrets.set(`${ns(r.object)}/${secretName}`, r);
  }
  const secretKeys = (namespace: string, name: string): Set<string> | undefined => {
    const s = find('Secret', namespace, name)?.object as ISecret | undefined;
    if (s) return new Set([...Object.keys(s.data ?? {}), ...Object.keys(s.stringData ?? {})]);
    // A Secret cert-manager writes for a Certificate in the same namespace exists once it is issued.
    return certificateSecrets.has(`${namespace}/${name}`) ? new Set(CERTIFICATE_SECRET_KEYS) : undefined;
  };
  const secretExists = (namespace: string, name: string): boolean => secretKeys(namespace, name) !== undefined;

  for (const w of workloads) {
    const o = w.object;
    const spec = podSpec(o);
    if (!spec) {
      add(w, 'workload has no pod template');
      continue;
    }
    const labels = podLabels(o);

    if (o.kind === 'Deployment' || o.kind === 'StatefulSet' || o.kind === 'DaemonSet' || o.kind === 'ReplicaSet') {
      const sel = matchLabelsOf((o['spec'] as { selector?: ILabelSelector }).selector);
      if (sel === 'unsupported') add(w, 'selector.matchExpressions is not checked offline; use matchLabels');
      else if (!selects(sel, labels)) add(w, 'spec.selector does not match the pod template labels');
    }

    if (o.kind === 'StatefulSet') {
      const serviceName = (o as unknown as IStatefulSet).spec?.serviceName;
      const svc = serviceName === undefined ? undefined : find('Service', ns(o), serviceName);
      if (!svc) add(w, `serviceName "${serviceName}" names no Service`);
      else {
        const s = svc.object as unknown as IService;
        if (s.spec?.clusterIP !== 'None') add(w, `serviceName "${serviceName}" is not a headless Service`);
        if (!selects(s.spec?.selector ?? {}, labels)) add(w, `Service "${serviceName}" does not select these pods`);
      }
    }

    const volumes = new Map((spec.volumes ?? []).map((v) => [v.name, v]));
    for (const v of spec.volumes ?? []) {
      if (
        v.configMap?.name !== undefined &&
        v.configMap.optional !== true &&
        !find('ConfigMap', ns(o), v.configMap.name)
      )
        add(w, `volume "${v.name}" names missing ConfigMap "${v.configMap.name}"`);
      const secretName = v.secret?.secretName;
      if (secretName !== undefined && v.secret?.optional !== true && !secretExists(ns(o), secretName))
        add(w, `volume "${v.name}" names missing Secret "${secretName}"`);
      for (const item of v.secret?.items ?? []) {
        if (
          secretName !== undefined &&
          secretExists(ns(o), secretName) &&
          !secretKeys(ns(o), secretName)?.has(item.key)
        )
          add(w, `volume "${v.name}" projects missing key ${secretName}/${item.key}`);
      }
      for (const src of v.projected?.sources ?? []) {
        if (src.configMap?.name !== undefined && !find('ConfigMap', ns(o), src.configMap.name))
          add(w, `volume "${v.name}" projects missing ConfigMap "${src.configMap.name}"`);
        if (src.secret?.name !== undefined && !secretExists(ns(o), src.secret.name))
          add(w, `volume "${v.name}" projects missing Secret "${src.secret.name}"`);
      }
    }

    const annotations = (
      (o.kind === 'Pod' ? o.metadata : (o['spec'] as { template?: { metadata?: unknown } }).template?.metadata) as
        { annotations?: Record<string, string> } | undefined
    )?.annotations;
    const scrapePort = annotations?.['prometheus.io/port'];
    if (scrapePort !== undefined && !spec.containers.some((c) => containerHasPort(c, Number(scrapePort))))
      add(w, `prometheus.io/port ${scrapePort} is not a container port`);

    for (const c of allContainers(spec)) {
      const where = `container "${c.name}"`;
      for (const m of c.volumeMounts ?? []) {
        if (!volumes.has(m.name)) add(w, `${where} mounts unknown volume "${m.name}"`);
      }

      for (const [kind, probe] of [
        ['startupProbe', c.startupProbe],
        ['livenessProbe', c.livenessProbe],
        ['readinessProbe', c.readinessProbe],
      ] as [string, IProbe | undefined][]) {
        const port = probe?.httpGet?.port ?? probe?.tcpSocket?.port ?? probe?.grpc?.port;
        if (port !== undefined && !containerHasPort(c, port)) add(w, `${where} ${kind} uses port ${port}, not opened`);
      }

      // Every variable the process will see, in the order Kubernetes defines them: envFrom first, then env.
      const defined = new Set<string>();
      const declare = (name: string): void => {
        if (
          !ctx.allowedEnv.has(name) &&
          !ctx.helperEnv.has(name) &&
          !ctx.standardEnv?.has(name) &&
          !ctx.pendingEnv?.has(name)
        )
          add(w, `${where} sets ${name}, which no Felt service reads (docs/dev/contracts.md)`);
        defined.add(name);
      };
      for (const src of c.envFrom ?? []) {
        const prefix = src.prefix ?? '';
        let keys: Set<string> | undefined;
        if (src.configMapRef) {
          keys = configMapKeys(ns(o), src.configMapRef.name ?? '');
          if (!keys && src.configMapRef.optional !== true)
            add(w, `${where} envFrom names missing ConfigMap "${src.configMapRef.name}"`);
        } else if (src.secretRef) {
          keys = secretKeys(ns(o), src.secretRef.name ?? '');
          if (!keys && src.secretRef.optional !== true)
            add(w, `${where} envFrom names missing Secret "${src.secretRef.name}"`);
        }
        for (const k of keys ?? []) declare(prefix + k);
      }
      for (const e of c.env ?? []) {
        for (const ref of (e.value ?? '').matchAll(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g)) {
          const name = ref[1] ?? '';
          if (!defined.has(name)) add(w, `${where} env ${e.name} refers to $(${name}), which is not defined before it`);
        }
        const cmRef = e.valueFrom?.configMapKeyRef;
        if (cmRef && cmRef.optional !== true && !configMapKeys(ns(o), cmRef.name ?? '')?.has(cmRef.key))
          add(w, `${where} env ${e.name} names missing ConfigMap key ${cmRef.name}/${cmRef.key}`);
        const sRef = e.valueFrom?.secretKeyRef;
        if (sRef && sRef.optional !== true && !secretKeys(ns(o), sRef.name ?? '')?.has(sRef.key))
          add(w, `${where} env ${e.name} names missing Secret key ${sRef.name}/${sRef.key}`);
        declare(e.name);
      }
    }
  }

  for (const r of objects) {
    const o = r.object;
    if (o.kind === 'Service') {
      const s = o as unknown as IService;
      const selector = s.spec?.selector;
      if (selector === undefined) continue; // a selector-less Service is wired by hand to endpoints
      const selected = workloadsSelectedBy(ns(o), selector);
      if (selected.length === 0) add(r, 'selector matches no workload');
      for (const p of s.spec?.ports ?? []) {
        const target = p.targetPort ?? p.port;
        for (const w of selected) {
          const spec = podSpec(w.object);
          if (spec && !spec.containers.some((c) => containerHasPort(c, target)))
            add(r, `port ${p.name ?? p.port} targets ${target}, which ${objectLabel(w)} does not open`);
        }
      }
    }

    if (o.kind === 'PodDisruptionBudget') {
      const sel = matchLabelsOf((o as unknown as IPodDisruptionBudget).spec?.selector);
      if (sel === 'unsupported') add(r, 'selector.matchExpressions is not checked offline; use matchLabels');
      else if (workloadsSelectedBy(ns(o), sel).length === 0) add(r, 'selector matches no workload');
    }

    if (o.kind === 'Ingress') {
      const ing = o as unknown as IIngress;
      const backends: IIngressBackend[] = [];
      if (ing.spec?.defaultBackend) backends.push(ing.spec.defaultBackend);
      for (const rule of ing.spec?.rules ?? []) for (const path of rule.http?.paths ?? []) backends.push(path.backend);
      for (const b of backends) {
        if (!b.service) continue;
        const svc = find('Service', ns(o), b.service.name)?.object as IService | undefined;
        if (!svc) {
          add(r, `backend names missing Service "${b.service.name}"`);
          continue;
        }
        const want = b.service.port;
        const ok = (svc.spec?.ports ?? []).some((p) =>
          want?.name !== undefined ? p.name === want.name : p.port === want?.number,
        );
        if (!ok) add(r, `backend port ${want?.name ?? want?.number} is not a port of Service "${b.service.name}"`);
      }
      for (const tls of ing.spec?.tls ?? []) {
        const name = tls.secretName;
        if (name !== undefined && !ctx.externalSecrets.has(name) && !secretExists(ns(o), name))
          add(r, `tls names missing Secret "${name}"`);
      }
    }

    if (o.kind === 'HorizontalPodAutoscaler') {
      const hpa = o as unknown as IHorizontalPodAutoscaler;
      const ref = hpa.spec?.scaleTargetRef;
      const target = ref ? find(ref.kind, ns(o), ref.name) : undefined;
      if (!ref || !target) add(r, `scaleTargetRef ${ref?.kind}/${ref?.name} names no workload`);
      else {
        if ((target.object['spec'] as { replicas?: number } | undefined)?.replicas !== undefined)
          add(r, `${objectLabel(target)} sets spec.replicas, which every apply would reset under the autoscaler`);
        const spec = podSpec(target.object);
        for (const m of hpa.spec?.metrics ?? []) {
          const resource = m.resource?.name;
          if (m.type === 'Resource' && resource !== undefined && m.resource?.target.type === 'Utilization') {
            for (const c of spec?.containers ?? []) {
              if (c.resources?.requests?.[resource] === undefined)
                add(r, `utilization of ${resource} needs a ${resource} request on container "${c.name}"`);
            }
          }
        }
      }
      if ((hpa.spec?.minReplicas ?? 1) > (hpa.spec?.maxReplicas ?? Infinity))
        add(r, 'minReplicas is above maxReplicas');
    }

    if (o.kind === 'PodMonitor' && o.apiVersion.startsWith('monitoring.coreos.com/')) {
      const pm = o as unknown as IPodMonitor;
      if (pm.spec.namespaceSelector !== undefined) continue; // pods in other namespaces are not rendered here
      const selected = workloads.filter(
        (w) => ns(w.object) === ns(o) && labelSelectorMatches(pm.spec.selector, podLabels(w.object)),
      );
      if (selected.length === 0 || Object.keys(pm.spec.selector).length === 0)
        add(r, 'selector matches no workload (an empty selector is refused: it would scrape every pod)');
      for (const ep of pm.spec.podMetricsEndpoints ?? []) {
        const port = ep.port ?? ep.portNumber;
        if (port === undefined) add(r, 'a podMetricsEndpoint names no port');
        for (const w of selected) {
          const spec = podSpec(w.object);
          if (port !== undefined && spec && !spec.containers.some((c) => containerHasPort(c, port)))
            add(r, `endpoint port ${port} is not a container port of ${objectLabel(w)}`);
        }
      }
    }

    if (o.kind === 'NetworkPolicy') {
      const np = o as unknown as INetworkPolicy;
      const selector = np.spec?.podSelector ?? {};
      const empty = Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0;
      const selected = workloads.filter(
        (w) => ns(w.object) === ns(o) && labelSelectorMatches(selector, podLabels(w.object)),
      );
      if (!empty && selected.length === 0) add(r, 'podSelector matches no workload');
      const opens = (ws: RenderedObject[], port: string): boolean =>
        ws.some((w) => (podSpec(w.object)?.containers ?? []).some((c) => containerHasPort(c, port)));
      for (const rule of np.spec?.ingress ?? []) {
        for (const p of rule.ports ?? []) {
          if (typeof p.port === 'string' && !opens(selected, p.port))
            add(r, `ingress port ${p.port} is opened by none of the selected pods`);
        }
      }
      for (const rule of np.spec?.egress ?? []) {
        // A named egress port is looked up on the destination pods: checked when they are rendered here.
        const peers = rule.to ?? [];
        if (peers.length === 0 || peers.some((peer) => peer.namespaceSelector !== undefined || peer.ipBlock)) continue;
        const dest = workloads.filter(
          (w) =>
            ns(w.object) === ns(o) && peers.some((peer) => labelSelectorMatches(peer.podSelector, podLabels(w.object))),
        );
        if (dest.length === 0) add(r, 'an egress rule names pods that no workload runs');
        for (const p of rule.ports ?? []) {
          if (typeof p.port === 'string' && dest.length > 0 && !opens(dest, p.port))
            add(r, `egress port ${p.port} is opened by none of the destination pods`);
        }
      }
    }

    if (o.kind === 'Certificate' && o.apiVersion.startsWith('cert-manager.io/')) {
      const cert = o as unknown as ICertificate;
      const issuer = cert.spec?.issuerRef;
      const kind = issuer?.kind ?? 'Issuer';
      const found =
        kind === 'ClusterIssuer'
          ? objects.find((x) => x.object.kind === 'ClusterIssuer' && x.object.metadata.name === issuer?.name)
          : find(kind, ns(o), issuer?.name ?? '');
      if ((issuer?.group ?? 'cert-manager.io') === 'cert-manager.io' && !found)
        add(r, `issuerRef names missing ${kind} "${issuer?.name}"`);
    }

    if ((o.kind === 'Issuer' || o.kind === 'ClusterIssuer') && o.apiVersion.startsWith('cert-manager.io/')) {
      const caSecret = (o as unknown as IIssuer).spec?.ca?.secretName;
      if (o.kind === 'Issuer' && caSecret !== undefined && !secretExists(ns(o), caSecret))
        add(r, `ca.secretName names missing Secret "${caSecret}"`);
    }
  }
  return findings;
}

/**
 * Pod Security Standards "restricted" (the subset that applies to these specs) plus Felt's own rules:
 * a read-only root filesystem and CPU/memory requests and limits on every container.
 */
export function podSecurityFindings(objects: readonly RenderedObject[]): Finding[] {
  const findings: Finding[] = [];
  for (const r of objects) {
    if (!isWorkload(r.object)) continue;
    const spec = podSpec(r.object);
    if (!spec) continue;
    const add = (message: string): void => {
      findings.push({ source: r.source, object: objectLabel(r), message });
    };
    if (spec.hostNetwork === true || spec.hostPID === true || spec.hostIPC === true) add('uses a host namespace');
    for (const v of spec.volumes ?? []) if (v.hostPath) add(`volume "${v.name}" is a hostPath`);
    const pod = spec.securityContext ?? {};
    if (pod.runAsUser === 0) add('pod runs as uid 0');
    for (const c of allContainers(spec)) {
      const sc = c.securityContext ?? {};
      const where = `container "${c.name}"`;
      if ((sc.runAsNonRoot ?? pod.runAsNonRoot) !== true) add(`${where} is not runAsNonRoot`);
      if (sc.runAsUser === 0) add(`${where} runs as uid 0`);
      const seccomp = sc.seccompProfile?.type ?? pod.seccompProfile?.type;
      if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost')
        add(`${where} has no RuntimeDefault seccomp profile`);
      if (sc.privileged === true) add(`${where} is privileged`);
      if (sc.allowPrivilegeEscalation !== false) add(`${where} allows privilege escalation`);
      if (!(sc.capabilities?.drop ?? []).includes('ALL')) add(`${where} does not drop ALL capabilities`);
      const added = (sc.capabilities?.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
      if (added.length > 0) add(`${where} adds capabilities ${added.join(', ')}`);
      if (sc.readOnlyRootFilesystem !== true) add(`${where} has a writable root filesystem`);
      for (const kind of ['requests', 'limits'] as const) {
        for (const resource of ['cpu', 'memory']) {
          if (c.resources?.[kind]?.[resource] === undefined) add(`${where} has no ${resource} ${kind.slice(0, -1)}`);
        }
      }
    }
  }
  return findings;
}
