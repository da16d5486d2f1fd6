import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractEnvVars } from './contracts.js';
import { podSecurityFindings, referenceFindings, type ReferenceContext } from './references.js';
import { renderKustomization, type RenderResult } from './render.js';
import { schemaFindings, strictFieldFindings, type Finding } from './schema.js';

export * from './contracts.js';
export * from './network-policy.js';
export * from './promql.js';
export * from './runtime-imports.js';
export * from './references.js';
export * from './render.js';
export * from './schema.js';

const k8sDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = join(k8sDir, '..');
export const baseDir = join(k8sDir, 'base');
/** The example deployment: the base plus the Secret and image an operator provides. */
export const exampleDir = join(k8sDir, 'overlays', 'example');

/** Downward-API helpers the manifests define only to compose other values, with why each is needed. */
export const HELPER_ENV: ReadonlyMap<string, string> = new Map([
  ['POD_NAMESPACE', 'composes WORKER_ADVERTISE_ADDR without hard-coding the namespace'],
]);

/** The optional monitoring component: PodMonitors, the PrometheusRule and the Grafana dashboard. */
export const monitoringDir = join(k8sDir, 'monitoring');

/** Secrets the operator provides outside the base (see docs/operations.md). */
export const EXTERNAL_SECRETS: ReadonlySet<string> = new Set(['felt-tls']);

const OTEL_SPEC = 'OpenTelemetry SDK environment variable specification, read by @opentelemetry/sdk-node';

/**
 * Standard variables that libraries every Felt process loads read themselves. An explicit list rather
 * than an `OTEL_` prefix, so a misspelt name (OTEL_TRACE_SAMPLER) is still refused.
 */
export const STANDARD_ENV: ReadonlyMap<string, string> = new Map([
  ...[
    'OTEL_SERVICE_NAME',
    'OTEL_RESOURCE_ATTRIBUTES',
    'OTEL_TRACES_SAMPLER',
    'OTEL_TRACES_SAMPLER_ARG',
    'OTEL_PROPAGATORS',
    'OTEL_SDK_DISABLED',
    'OTEL_LOG_LEVEL',
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    'OTEL_EXPORTER_OTLP_HEADERS',
    'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
    'OTEL_EXPORTER_OTLP_TIMEOUT',
    'OTEL_EXPORTER_OTLP_COMPRESSION',
    'OTEL_EXPORTER_OTLP_CERTIFICATE',
    'OTEL_BSP_SCHEDULE_DELAY',
    'OTEL_BSP_MAX_QUEUE_SIZE',
    'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
    'OTEL_BSP_EXPORT_TIMEOUT',
    'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT',
    'OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT',
  ].map((name): [string, string] => [name, OTEL_SPEC]),
  ['NODE_EXTRA_CA_CERTS', 'Node.js: extra CA certificates, e.g. for a rediss:// server under a private CA'],
]);

/**
 * Felt variables the manifests may set ahead of the services while the services are taught to read
 * them (docs/dev/contracts.md does not list them yet). None now. The k8s tests fail once the contracts
 * list one, so the entry is removed here then.
 */
export const PENDING_ENV: ReadonlyMap<string, string> = new Map();

export function defaultReferenceContext(): ReferenceContext {
  return {
    allowedEnv: contractEnvVars(readFileSync(join(repoRoot, 'docs/dev/contracts.md'), 'utf8')),
    helperEnv: HELPER_ENV,
    externalSecrets: EXTERNAL_SECRETS,
    standardEnv: STANDARD_ENV,
    pendingEnv: PENDING_ENV,
  };
}

/**
 * Renders a deployment directory (default: the example overlay, which includes the base) with each
 * committed `secrets.env.example` standing in for the operator's gitignored `secrets.env`. Sources are
 * named relative to k8s/.
 */
export function renderDeployment(dir: string = exampleDir): RenderResult {
  return renderKustomization(dir, {
    fileOverrides: { 'secrets.env': 'secrets.env.example' },
    sourceRoot: k8sDir,
  });
}

/** Every offline check, in one list: schema, unknown fields, cross-references and pod security. */
export async function validateRendered(
  rendered: RenderResult,
  ctx: ReferenceContext = defaultReferenceContext(),
): Promise<Finding[]> {
  const unlisted: Finding[] = rendered.unlistedFiles.map((f) => ({
    source: f,
    object: '-',
    message: 'not listed in kustomization.yaml resources, so it would never be applied',
  }));
  return [
    ...unlisted,
    ...(await schemaFindings(rendered.objects)),
    ...strictFieldFindings(rendered.objects),
    ...referenceFindings(rendered.objects, ctx),
    ...podSecurityFindings(rendered.objects),
  ];
}
