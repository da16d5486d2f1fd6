// The offline validator: each kind of broken manifest it must catch.
import { beforeAll, describe, expect, it } from 'vitest';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { ICertificate } from '@kubernetes-models/cert-manager/cert-manager.io/v1/Certificate';
import {
  allContainers,
  defaultReferenceContext,
  isWorkload,
  podSecurityFindings,
  podSpec,
  referenceFindings,
  schemaFindings,
  strictFieldFindings,
  type K8sObject,
  type RenderedObject,
  type RenderResult,
} from '../src/index.js';
import { example, format, generated, get } from './support/manifests.js';

let base: RenderResult;
beforeAll(() => {
  base = example();
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
      const data = (find('ConfigMap', generated('ConfigMap', 'felt-config').metadata.name) as unknown as IConfigMap)
        .data!;
      data['FELT_REDIS_PREFX'] = data['FELT_REDIS_PREFIX']!;
    },
  },
  {
    what: 'a misspelt OpenTelemetry variable',
    check: 'refs',
    expected: /sets OTEL_TRACE_SAMPLER, which no Felt service reads/,
    mutate: (find) => {
      const data = (find('ConfigMap', generated('ConfigMap', 'felt-config').metadata.name) as unknown as IConfigMap)
        .data!;
      data['OTEL_TRACE_SAMPLER'] = 'always_on';
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
    what: 'a PodMonitor scraping a port the pods do not open',
    check: 'refs',
    expected: /PodMonitor\/felt-lobby: endpoint port metrics is not a container port of Deployment\/felt-lobby/,
    mutate: (find) => {
      (
        find('PodMonitor', 'felt-lobby')['spec'] as { podMetricsEndpoints: { port: string }[] }
      ).podMetricsEndpoints[0]!.port = 'metrics';
    },
  },
  {
    what: 'a PodMonitor selecting no pod',
    check: 'refs',
    expected: /PodMonitor\/felt-persister: selector matches no workload/,
    mutate: (find) => {
      (
        find('PodMonitor', 'felt-persister')['spec'] as { selector: { matchLabels: Record<string, string> } }
      ).selector.matchLabels['app.kubernetes.io/component'] = 'persist';
    },
  },
  {
    what: 'a misspelt PodMonitor field',
    check: 'strict',
    expected: /'"intervall"' does not exist in type/,
    mutate: (find) => {
      (
        find('PodMonitor', 'felt-gateway')['spec'] as { podMetricsEndpoints: Record<string, unknown>[] }
      ).podMetricsEndpoints[0]!['intervall'] = '30s';
    },
  },
  {
    what: 'a PrometheusRule of the wrong shape',
    check: 'schema',
    expected: /rules must be array/,
    mutate: (find) => {
      (find('PrometheusRule', 'felt')['spec'] as { groups: Record<string, unknown>[] }).groups[0]!['rules'] = 'x';
    },
  },
  {
    what: 'an autoscaler scaling a Deployment that does not exist',
    check: 'refs',
    expected: /scaleTargetRef Deployment\/felt-gw names no workload/,
    mutate: (find) => {
      (
        find('HorizontalPodAutoscaler', 'felt-gateway') as unknown as IHorizontalPodAutoscaler
      ).spec.scaleTargetRef.name = 'felt-gw';
    },
  },
  {
    what: 'a replica count on an autoscaled Deployment',
    check: 'refs',
    expected: /Deployment\/felt-gateway sets spec.replicas, which every apply would reset under the autoscaler/,
    mutate: (find) => {
      (find('Deployment', 'felt-gateway')['spec'] as Record<string, unknown>)['replicas'] = 3;
    },
  },
  {
    what: 'a NetworkPolicy selecting no pod',
    check: 'refs',
    expected: /NetworkPolicy\/felt-gateway-to-workers: podSelector matches no workload/,
    mutate: (find) => {
      (
        find('NetworkPolicy', 'felt-gateway-to-workers')['spec'] as {
          podSelector: { matchLabels: Record<string, string> };
        }
      ).podSelector.matchLabels['app.kubernetes.io/component'] = 'gw';
    },
  },
  {
    what: 'a NetworkPolicy opening a named port the pods lack',
    check: 'refs',
    expected: /NetworkPolicy\/felt-allow-monitoring-lobby: ingress port metrics is opened by none of the selected pods/,
    mutate: (find) => {
      (
        find('NetworkPolicy', 'felt-allow-monitoring-lobby')['spec'] as { ingress: { ports: { port: string }[] }[] }
      ).ingress[0]!.ports[0]!.port = 'metrics';
    },
  },
  {
    what: 'a certificate from an issuer that does not exist',
    check: 'refs',
    expected: /Certificate\/felt-worker-grpc: issuerRef names missing Issuer "felt-ca"/,
    mutate: (find) => {
      (find('Certificate', 'felt-worker-grpc') as unknown as ICertificate).spec!.issuerRef.name = 'felt-ca';
    },
  },
  {
    what: 'a certificate volume naming a Secret nothing provides',
    check: 'refs',
    expected: /volume "grpc-tls" names missing Secret "felt-worker-tls"/,
    mutate: (find) => {
      const volumes = (
        find('StatefulSet', 'felt-table-worker')['spec'] as {
          template: { spec: { volumes: { name: string; secret?: { secretName: string } }[] } };
        }
      ).template.spec.volumes;
      volumes.find((v) => v.name === 'grpc-tls')!.secret!.secretName = 'felt-worker-tls';
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
