/** Kubernetes objects as read from YAML files, the renderer's typed error, and pod-spec accessors. */
import { existsSync, readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

export const ManifestErrorCode = {
  YAML_PARSE: 'yaml_parse',
  NOT_AN_OBJECT: 'not_an_object',
  UNSUPPORTED_KUSTOMIZE_FIELD: 'unsupported_kustomize_field',
  MISSING_FILE: 'missing_file',
  GENERATOR_CONFLICT: 'generator_conflict',
  PATCH_FAILED: 'patch_failed',
} as const;
export type ManifestErrorCode = (typeof ManifestErrorCode)[keyof typeof ManifestErrorCode];

export class ManifestError extends Error {
  override readonly name = 'ManifestError';
  constructor(
    readonly code: ManifestErrorCode,
    readonly file: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`${file}: ${message}`, options);
  }
}

/** A Kubernetes object as read from YAML: only the type meta and name are known before validation. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** One rendered object and where it came from, so every finding can name its file. */
export interface RenderedObject {
  /**
   * `file#n` (n counts documents from 0) or `dir/kustomization.yaml:secretGenerator/<name>` (or
   * `configMapGenerator`), relative to the render's source root.
   */
  readonly source: string;
  readonly object: K8sObject;
}

/** Parses every YAML document of one file; comments-only documents are skipped. */
export function parseManifestFile(file: string, text: string): RenderedObject[] {
  const out: RenderedObject[] = [];
  parseAllDocuments(text).forEach((doc, index) => {
    const problem = doc.errors[0];
    if (problem) {
      throw new ManifestError(ManifestErrorCode.YAML_PARSE, `${file}#${index}`, problem.message, { cause: problem });
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return;
    if (!isK8sObject(value)) {
      throw new ManifestError(
        ManifestErrorCode.NOT_AN_OBJECT,
        `${file}#${index}`,
        'a document must be a mapping with apiVersion, kind and metadata.name',
      );
    }
    out.push({ source: `${file}#${index}`, object: value });
  });
  return out;
}

function isK8sObject(value: unknown): value is K8sObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const metadata = v['metadata'];
  return (
    typeof v['apiVersion'] === 'string' &&
    typeof v['kind'] === 'string' &&
    typeof metadata === 'object' &&
    metadata !== null &&
    typeof (metadata as Record<string, unknown>)['name'] === 'string'
  );
}

export function readYamlMapping(file: string): Record<string, unknown> {
  if (!existsSync(file)) throw new ManifestError(ManifestErrorCode.MISSING_FILE, file, 'does not exist');
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const first = docs[0];
  if (docs.length !== 1 || first === undefined) {
    throw new ManifestError(ManifestErrorCode.YAML_PARSE, file, 'expected exactly one YAML document');
  }
  const problem = first.errors[0];
  if (problem) throw new ManifestError(ManifestErrorCode.YAML_PARSE, file, problem.message, { cause: problem });
  const value: unknown = first.toJS();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ManifestError(ManifestErrorCode.NOT_AN_OBJECT, file, 'expected a mapping');
  }
  return value as Record<string, unknown>;
}

/** The image reference without tag or digest (a registry port's colon is not a tag). */
export function imageName(image: string): string {
  const noDigest = image.split('@')[0] ?? image;
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > slash ? noDigest.slice(0, colon) : noDigest;
}

/** The containers (init containers included) of a workload's pod template, as mutable records. */
export function podContainers(object: K8sObject): Record<string, unknown>[] {
  const podSpec = podSpecOf(object);
  if (!podSpec) return [];
  const list = (key: string): Record<string, unknown>[] => {
    const v = podSpec[key];
    return Array.isArray(v) ? (v as Record<string, unknown>[]) : [];
  };
  return [...list('initContainers'), ...list('containers')];
}

const POD_TEMPLATE_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);

/** The pod spec of a Pod, or of a workload's pod template; undefined for other kinds. */
export function podSpecOf(object: K8sObject): Record<string, unknown> | undefined {
  const spec = object['spec'] as Record<string, unknown> | undefined;
  if (!spec) return undefined;
  if (object.kind === 'Pod') return spec;
  if (object.kind === 'CronJob') {
    const jobSpec = (spec['jobTemplate'] as Record<string, unknown> | undefined)?.['spec'] as
      Record<string, unknown> | undefined;
    return (jobSpec?.['template'] as Record<string, unknown> | undefined)?.['spec'] as
      Record<string, unknown> | undefined;
  }
  if (!POD_TEMPLATE_KINDS.has(object.kind)) return undefined;
  const template = spec['template'] as Record<string, unknown> | undefined;
  return template?.['spec'] as Record<string, unknown> | undefined;
}
