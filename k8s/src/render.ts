import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const ManifestErrorCode = {
  YAML_PARSE: 'yaml_parse',
  NOT_AN_OBJECT: 'not_an_object',
  UNSUPPORTED_KUSTOMIZE_FIELD: 'unsupported_kustomize_field',
  MISSING_FILE: 'missing_file',
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
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

/** One rendered object and where it came from, so every finding can name its file. */
export interface RenderedObject {
  /**
   * `file#n` (n counts documents from 0) or `dir/kustomization.yaml:secretGenerator/<name>`, relative to
   * the render's source root.
   */
  readonly source: string;
  readonly object: K8sObject;
}

export interface RenderOptions {
  /**
   * Replacement paths for generator inputs, keyed by the path written in kustomization.yaml. The test
   * renders with `secrets.env.example` in place of the operator's gitignored `secrets.env`.
   */
  readonly fileOverrides?: Readonly<Record<string, string>>;
  /** Sources and unlisted files are named relative to this directory (default: the rendered one). */
  readonly sourceRoot?: string;
}

export interface RenderResult {
  readonly objects: RenderedObject[];
  /** YAML files in a rendered directory that its kustomization.yaml does not list: they would silently not deploy. */
  readonly unlistedFiles: string[];
}

// The subset of kustomize that k8s/base uses. Anything else is refused rather than ignored, so this
// renderer can never silently disagree with `kubectl apply -k`.
const SUPPORTED_FIELDS = new Set([
  'apiVersion',
  'kind',
  'namespace',
  'resources',
  'secretGenerator',
  'generatorOptions',
  'images',
]);

// Cluster-scoped kinds that base may contain; every other kind gets the kustomization's namespace.
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'PersistentVolume', 'StorageClass']);

interface SecretGenerator {
  name: string;
  type?: string;
  envs?: string[];
  literals?: string[];
}

interface ImageOverride {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  secretGenerator?: SecretGenerator[];
  generatorOptions?: { disableNameSuffixHash?: boolean };
  images?: ImageOverride[];
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

/** Reads `KEY=VALUE` lines the way kustomize's `envs` does: blank lines and `#` comments are skipped. */
export function parseEnvFile(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    out.set(line.slice(0, eq), line.slice(eq + 1));
  }
  return out;
}

/** Renders a kustomization directory (the subset base uses) into the objects `kubectl apply -k` would send. */
export function renderKustomization(dir: string, options: RenderOptions = {}): RenderResult {
  const kFile = join(dir, 'kustomization.yaml');
  const k = readYamlMapping(kFile) as Kustomization;
  for (const field of Object.keys(k)) {
    if (!SUPPORTED_FIELDS.has(field)) {
      throw new ManifestError(
        ManifestErrorCode.UNSUPPORTED_KUSTOMIZE_FIELD,
        kFile,
        `field "${field}" is not understood by the offline renderer; teach k8s/src/render.ts first`,
      );
    }
  }

  const resolve = (path: string): string => {
    const override = options.fileOverrides?.[path];
    const full = join(dir, override ?? path);
    if (!existsSync(full)) throw new ManifestError(ManifestErrorCode.MISSING_FILE, kFile, `${path} does not exist`);
    return full;
  };

  const root = options.sourceRoot ?? dir;
  const named = (path: string): string => relative(root, join(dir, path)) || '.';
  const objects: RenderedObject[] = [];
  const unlistedFiles: string[] = [];
  const listed = new Set<string>();
  for (const resource of k.resources ?? []) {
    listed.add(resource);
    const full = resolve(resource);
    if (existsSync(join(full, 'kustomization.yaml'))) {
      // A base: rendered on its own, then this kustomization's fields apply on top, as kustomize does.
      const base = renderKustomization(full, { ...options, sourceRoot: root });
      objects.push(...base.objects);
      unlistedFiles.push(...base.unlistedFiles);
    } else {
      objects.push(...parseManifestFile(named(resource), readFileSync(full, 'utf8')));
    }
  }

  for (const gen of k.secretGenerator ?? []) {
    const data: Record<string, string> = {};
    for (const envFile of gen.envs ?? []) {
      for (const [key, value] of parseEnvFile(readFileSync(resolve(envFile), 'utf8'))) {
        data[key] = Buffer.from(value).toString('base64');
      }
    }
    for (const literal of gen.literals ?? []) {
      const [key, value] = splitOnce(literal, '=');
      data[key] = Buffer.from(value).toString('base64');
    }
    // Without disableNameSuffixHash kustomize appends a content hash and rewrites references; base
    // disables it, and a renderer that ignored the difference would check the wrong names.
    if (k.generatorOptions?.disableNameSuffixHash !== true) {
      throw new ManifestError(
        ManifestErrorCode.UNSUPPORTED_KUSTOMIZE_FIELD,
        kFile,
        'secretGenerator with name suffix hashes is not supported by the offline renderer',
      );
    }
    objects.push({
      source: `${named('kustomization.yaml')}:secretGenerator/${gen.name}`,
      object: { apiVersion: 'v1', kind: 'Secret', metadata: { name: gen.name }, type: gen.type ?? 'Opaque', data },
    });
  }

  for (const { object } of objects) {
    if (k.namespace !== undefined && !CLUSTER_SCOPED.has(object.kind)) object.metadata.namespace = k.namespace;
    for (const container of podContainers(object)) {
      const image = container['image'];
      if (typeof image !== 'string') continue;
      const override = (k.images ?? []).find((o) => imageName(image) === o.name);
      if (override) container['image'] = applyImageOverride(image, override);
    }
  }

  unlistedFiles.push(
    ...readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f) && f !== basename(kFile) && !listed.has(f))
      .sort()
      .map(named),
  );
  return { objects, unlistedFiles };
}

function readYamlMapping(file: string): Record<string, unknown> {
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

function splitOnce(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + sep.length)];
}

/** The image reference without tag or digest (a registry port's colon is not a tag). */
export function imageName(image: string): string {
  const noDigest = image.split('@')[0] ?? image;
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > slash ? noDigest.slice(0, colon) : noDigest;
}

function applyImageOverride(image: string, o: ImageOverride): string {
  const name = o.newName ?? imageName(image);
  if (o.digest !== undefined) return `${name}@${o.digest}`;
  const tag = o.newTag ?? (image.length > imageName(image).length ? image.slice(imageName(image).length + 1) : '');
  return tag === '' ? name : `${name}:${tag}`;
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
  const template = spec['template'] as Record<string, unknown> | undefined;
  return template?.['spec'] as Record<string, unknown> | undefined;
}
