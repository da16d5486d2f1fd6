import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { parse as parseYaml, parseAllDocuments } from 'yaml';

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

// The subset of kustomize that k8s/ uses. Anything else is refused rather than ignored, so this
// renderer can never silently disagree with `kubectl apply -k`.
const SUPPORTED_FIELDS = new Set([
  'apiVersion',
  'kind',
  'namespace',
  'resources',
  'components',
  'configMapGenerator',
  'secretGenerator',
  'generatorOptions',
  'patches',
  'images',
]);
const GENERATOR_FIELDS = new Set(['name', 'namespace', 'behavior', 'envs', 'literals', 'files', 'options', 'type']);
const GENERATOR_OPTION_FIELDS = new Set(['disableNameSuffixHash', 'labels', 'annotations', 'immutable']);
const PATCH_FIELDS = new Set(['path', 'patch', 'target']);
const TARGET_FIELDS = new Set(['group', 'version', 'kind', 'name', 'namespace', 'labelSelector']);

// Cluster-scoped kinds that k8s/ may contain; every other kind gets the kustomization's namespace.
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'PersistentVolume',
  'StorageClass',
  'ClusterIssuer',
]);

interface GeneratorOptions {
  disableNameSuffixHash?: boolean;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  immutable?: boolean;
}

interface GeneratorArgs {
  name: string;
  namespace?: string;
  behavior?: 'create' | 'merge' | 'replace';
  envs?: string[];
  literals?: string[];
  files?: string[];
  options?: GeneratorOptions;
  /** secretGenerator only. */
  type?: string;
}

interface PatchTarget {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
}

interface PatchArgs {
  path?: string;
  patch?: string;
  target?: PatchTarget;
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
  components?: string[];
  configMapGenerator?: GeneratorArgs[];
  secretGenerator?: GeneratorArgs[];
  generatorOptions?: GeneratorOptions;
  patches?: PatchArgs[];
  images?: ImageOverride[];
}

/** Objects accumulated while a kustomization and the bases and components it includes are rendered. */
interface Accumulator {
  readonly objects: RenderedObject[];
  /** Generated ConfigMaps and Secrets, with whether kustomize appends a content hash to their name. */
  readonly generated: Map<RenderedObject, { hash: boolean }>;
  readonly unlistedFiles: string[];
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

/**
 * Renders a kustomization directory (the subset k8s/ uses) into the objects `kubectl apply -k` would
 * send: resources and bases, then components, then generators, then patches, namespace and images, and
 * finally the content-hash suffixes of generated ConfigMaps and Secrets, with every pod-spec reference
 * to them renamed, as kustomize does.
 */
export function renderKustomization(dir: string, options: RenderOptions = {}): RenderResult {
  const acc = build(dir, options, options.sourceRoot ?? dir, undefined);
  applyNameSuffixHashes(acc);
  return { objects: acc.objects, unlistedFiles: acc.unlistedFiles };
}

function build(dir: string, options: RenderOptions, root: string, shared: Accumulator | undefined): Accumulator {
  const kFile = join(dir, 'kustomization.yaml');
  const k = readYamlMapping(kFile) as Kustomization;
  const unsupported = (message: string): ManifestError =>
    new ManifestError(ManifestErrorCode.UNSUPPORTED_KUSTOMIZE_FIELD, kFile, message);
  for (const field of Object.keys(k)) {
    if (!SUPPORTED_FIELDS.has(field)) {
      throw unsupported(`field "${field}" is not understood by the offline renderer; teach k8s/src/render.ts first`);
    }
  }
  const isComponent = k.kind === 'Component';
  if (shared !== undefined && !isComponent) throw unsupported('listed under components but is not a kind: Component');
  if (shared === undefined && isComponent) throw unsupported('a kind: Component can only be listed under components');

  const resolve = (path: string): string => {
    const override = options.fileOverrides?.[path];
    const full = join(dir, override ?? path);
    if (!existsSync(full)) throw new ManifestError(ManifestErrorCode.MISSING_FILE, kFile, `${path} does not exist`);
    return full;
  };
  const named = (path: string): string => relative(root, join(dir, path)) || '.';

  const acc: Accumulator = shared ?? { objects: [], generated: new Map(), unlistedFiles: [] };
  const listed = new Set<string>();

  for (const resource of k.resources ?? []) {
    listed.add(resource);
    const full = resolve(resource);
    if (existsSync(join(full, 'kustomization.yaml'))) {
      // A base: rendered on its own, then this kustomization's fields apply on top, as kustomize does.
      const base = build(full, options, root, undefined);
      acc.objects.push(...base.objects);
      for (const [o, g] of base.generated) acc.generated.set(o, g);
      acc.unlistedFiles.push(...base.unlistedFiles);
    } else {
      acc.objects.push(...parseManifestFile(named(resource), readFileSync(full, 'utf8')));
    }
  }

  // A component works on everything accumulated so far: it adds its objects and patches the others.
  for (const component of k.components ?? []) {
    const full = resolve(component);
    if (!existsSync(join(full, 'kustomization.yaml')))
      throw unsupported(`component ${component} has no kustomization.yaml`);
    build(full, options, root, acc);
  }

  for (const [field, kind] of [
    ['configMapGenerator', 'ConfigMap'],
    ['secretGenerator', 'Secret'],
  ] as const) {
    for (const gen of k[field] ?? []) {
      for (const key of Object.keys(gen)) {
        if (!GENERATOR_FIELDS.has(key) || (key === 'type' && kind !== 'Secret'))
          throw unsupported(`${field} field "${key}" is not understood by the offline renderer`);
      }
      for (const key of Object.keys(gen.options ?? {})) {
        if (!GENERATOR_OPTION_FIELDS.has(key))
          throw unsupported(`${field} option "${key}" is not understood by the offline renderer`);
      }
      for (const path of [...(gen.envs ?? []), ...(gen.files ?? []).map((f) => splitOnce(f, '=', true)[1])])
        listed.add(path);
      generate(kind, gen, k.generatorOptions ?? {}, {
        acc,
        kFile,
        source: `${named('kustomization.yaml')}:${field}/${gen.name}`,
        read: (path) => readFileSync(resolve(path), 'utf8'),
      });
    }
  }

  for (const p of k.patches ?? []) {
    for (const key of Object.keys(p)) {
      if (!PATCH_FIELDS.has(key)) throw unsupported(`patches field "${key}" is not understood by the offline renderer`);
    }
    for (const key of Object.keys(p.target ?? {})) {
      if (!TARGET_FIELDS.has(key))
        throw unsupported(`patch target field "${key}" is not understood by the offline renderer`);
    }
    if (p.path !== undefined) listed.add(p.path);
    const where = p.path === undefined ? `${kFile} (inline patch)` : join(dir, p.path);
    const text = p.path !== undefined ? readFileSync(resolve(p.path), 'utf8') : (p.patch ?? '');
    applyPatch(acc, p.target, text, where, unsupported);
  }

  for (const { object } of acc.objects) {
    if (k.namespace !== undefined && !CLUSTER_SCOPED.has(object.kind)) object.metadata.namespace = k.namespace;
    for (const container of podContainers(object)) {
      const image = container['image'];
      if (typeof image !== 'string') continue;
      const override = (k.images ?? []).find((o) => imageName(image) === o.name);
      if (override) container['image'] = applyImageOverride(image, override);
    }
  }

  acc.unlistedFiles.push(
    ...readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f) && f !== basename(kFile) && !listed.has(f))
      .sort()
      .map(named),
  );
  return acc;
}

interface GenerateContext {
  readonly acc: Accumulator;
  readonly kFile: string;
  readonly source: string;
  readonly read: (path: string) => string;
}

function generate(
  kind: 'ConfigMap' | 'Secret',
  gen: GeneratorArgs,
  kustomizationOptions: GeneratorOptions,
  ctx: GenerateContext,
): void {
  const values: [string, string][] = [];
  for (const envFile of gen.envs ?? []) values.push(...parseEnvFile(ctx.read(envFile)));
  for (const literal of gen.literals ?? []) values.push(splitOnce(literal, '='));
  for (const file of gen.files ?? []) {
    const [key, path] = splitOnce(file, '=', true);
    values.push([key === '' ? basename(path) : key, ctx.read(path)]);
  }
  const data: Record<string, string> = {};
  for (const [key, value] of values) data[key] = kind === 'Secret' ? Buffer.from(value).toString('base64') : value;

  const opts: GeneratorOptions = { ...kustomizationOptions, ...gen.options };
  const behavior = gen.behavior ?? 'create';
  const existing = ctx.acc.objects.find(
    (r) =>
      r.object.kind === kind &&
      r.object.metadata.name === gen.name &&
      (gen.namespace === undefined || r.object.metadata.namespace === gen.namespace),
  );
  if (behavior === 'create') {
    if (existing) {
      throw new ManifestError(
        ManifestErrorCode.GENERATOR_CONFLICT,
        ctx.kFile,
        `${kind} ${gen.name} already exists (from ${existing.source}); use behavior: merge or replace`,
      );
    }
    const object: K8sObject = {
      apiVersion: 'v1',
      kind,
      metadata: {
        name: gen.name,
        ...(gen.namespace === undefined ? {} : { namespace: gen.namespace }),
        ...(opts.labels ? { labels: { ...opts.labels } } : {}),
        ...(opts.annotations ? { annotations: { ...opts.annotations } } : {}),
      },
      ...(kind === 'Secret' ? { type: gen.type ?? 'Opaque' } : {}),
      ...(opts.immutable === true ? { immutable: true } : {}),
      data,
    };
    const rendered: RenderedObject = { source: ctx.source, object };
    ctx.acc.objects.push(rendered);
    ctx.acc.generated.set(rendered, { hash: opts.disableNameSuffixHash !== true });
    return;
  }
  const target = existing && ctx.acc.generated.has(existing) ? existing : undefined;
  if (!target) {
    throw new ManifestError(
      ManifestErrorCode.GENERATOR_CONFLICT,
      ctx.kFile,
      `behavior: ${behavior} needs a generated ${kind} ${gen.name} from a base or an earlier component`,
    );
  }
  const o = target.object;
  const previous = (o['data'] ?? {}) as Record<string, string>;
  o['data'] = behavior === 'merge' ? { ...previous, ...data } : data;
  if (opts.labels) o.metadata.labels = { ...o.metadata.labels, ...opts.labels };
  if (opts.annotations) o.metadata.annotations = { ...o.metadata.annotations, ...opts.annotations };
  if (gen.options?.disableNameSuffixHash !== undefined) {
    ctx.acc.generated.set(target, { hash: !gen.options.disableNameSuffixHash });
  }
}

/**
 * kustomize's content hash of a generated ConfigMap or Secret (api/hasher): the sha256 of Go's JSON
 * encoding (sorted keys, HTML-safe escapes) of kind, name and data (and type for a Secret), its first
 * ten hex digits with 0, 1, 3, a and e replaced so the suffix can't spell words.
 */
export function kustomizeNameHash(object: K8sObject): string {
  const fields: Record<string, unknown> = { kind: object.kind, name: object.metadata.name, data: object['data'] ?? {} };
  if (object.kind === 'Secret') fields['type'] = object['type'] ?? 'Opaque';
  if (object.kind === 'ConfigMap') {
    const binary = object['binaryData'] as Record<string, string> | undefined;
    if (binary && Object.keys(binary).length > 0) fields['binaryData'] = binary;
  }
  if (object['immutable'] === true) fields['immutable'] = true;
  const hex = createHash('sha256').update(goJson(fields)).digest('hex');
  const swap: Record<string, string> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };
  return [...hex.slice(0, 10)].map((c) => swap[c] ?? c).join('');
}

function goJson(value: unknown): string {
  if (typeof value === 'string') return goString(value);
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${goString(k)}:${goJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function goString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029)
      out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Appends the content hash to generated names and renames every pod-spec reference to them. */
function applyNameSuffixHashes(acc: Accumulator): void {
  const renamed = new Map<string, string>();
  const key = (kind: string, namespace: string | undefined, name: string): string =>
    `${kind}/${namespace ?? ''}/${name}`;
  for (const [r, { hash }] of acc.generated) {
    if (!hash) continue;
    const o = r.object;
    const newName = `${o.metadata.name}-${kustomizeNameHash(o)}`;
    renamed.set(key(o.kind, o.metadata.namespace, o.metadata.name), newName);
    o.metadata.name = newName;
  }
  if (renamed.size === 0) return;
  for (const { object } of acc.objects) {
    const ns = object.metadata.namespace;
    const spec = podSpecOf(object);
    if (!spec) continue;
    const rename = (kind: 'ConfigMap' | 'Secret', holder: Record<string, unknown> | undefined, field: string): void => {
      const name = holder?.[field];
      if (typeof name !== 'string') return;
      const to = renamed.get(key(kind, ns, name));
      if (to !== undefined && holder) holder[field] = to;
    };
    for (const c of podContainers(object)) {
      for (const src of (c['envFrom'] as Record<string, Record<string, unknown>>[] | undefined) ?? []) {
        rename('ConfigMap', src['configMapRef'], 'name');
        rename('Secret', src['secretRef'], 'name');
      }
      for (const e of (c['env'] as { valueFrom?: Record<string, Record<string, unknown>> }[] | undefined) ?? []) {
        rename('ConfigMap', e.valueFrom?.['configMapKeyRef'], 'name');
        rename('Secret', e.valueFrom?.['secretKeyRef'], 'name');
      }
    }
    for (const v of (spec['volumes'] as Record<string, unknown>[] | undefined) ?? []) {
      rename('ConfigMap', v['configMap'] as Record<string, unknown> | undefined, 'name');
      rename('Secret', v['secret'] as Record<string, unknown> | undefined, 'secretName');
      const projected = v['projected'] as { sources?: Record<string, Record<string, unknown>>[] } | undefined;
      for (const s of projected?.sources ?? []) {
        rename('ConfigMap', s['configMap'], 'name');
        rename('Secret', s['secret'], 'name');
      }
    }
    for (const ref of (spec['imagePullSecrets'] as Record<string, unknown>[] | undefined) ?? []) {
      rename('Secret', ref, 'name');
    }
  }
}

interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace' | 'test' | 'move' | 'copy';
  path: string;
  value?: unknown;
  from?: string;
}

function applyPatch(
  acc: Accumulator,
  target: PatchTarget | undefined,
  text: string,
  where: string,
  unsupported: (message: string) => ManifestError,
): void {
  let ops: unknown;
  try {
    ops = parseYaml(text);
  } catch (err) {
    throw new ManifestError(ManifestErrorCode.YAML_PARSE, where, (err as Error).message, { cause: err });
  }
  if (!Array.isArray(ops)) {
    throw unsupported('only JSON 6902 patches (a list of operations, with a target) are rendered offline');
  }
  if (target === undefined) throw unsupported('a JSON 6902 patch needs a target');
  const matches = acc.objects.filter((r) => targetMatches(target, r.object));
  if (matches.length === 0) {
    throw new ManifestError(ManifestErrorCode.PATCH_FAILED, where, `target ${JSON.stringify(target)} matches nothing`);
  }
  for (const r of matches) {
    for (const op of ops as JsonPatchOp[]) {
      try {
        applyOp(r.object, op);
      } catch (err) {
        throw new ManifestError(
          ManifestErrorCode.PATCH_FAILED,
          where,
          `${op.op} ${op.path} on ${r.object.kind}/${r.object.metadata.name}: ${(err as Error).message}`,
          { cause: err },
        );
      }
    }
  }
}

function targetMatches(t: PatchTarget, o: K8sObject): boolean {
  const [group, version] = o.apiVersion.includes('/') ? splitOnce(o.apiVersion, '/') : ['', o.apiVersion];
  const anchored = (pattern: string, value: string): boolean => new RegExp(`^(?:${pattern})$`).test(value);
  if (t.kind !== undefined && !anchored(t.kind, o.kind)) return false;
  if (t.name !== undefined && !anchored(t.name, o.metadata.name)) return false;
  if (t.namespace !== undefined && !anchored(t.namespace, o.metadata.namespace ?? '')) return false;
  if (t.group !== undefined && !anchored(t.group, group)) return false;
  if (t.version !== undefined && !anchored(t.version, version)) return false;
  if (t.labelSelector !== undefined) {
    for (const term of t.labelSelector.split(',')) {
      const [k, v] = splitOnce(term.trim(), '=');
      if (o.metadata.labels?.[k] !== v) return false;
    }
  }
  return true;
}

function pointer(path: string): string[] {
  if (path === '' || !path.startsWith('/')) throw new Error(`"${path}" is not a JSON pointer below the document root`);
  return path
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: Record<string, unknown>, tokens: string[]): unknown {
  let node: unknown = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = node[Number(t)];
    else if (node !== null && typeof node === 'object') node = (node as Record<string, unknown>)[t];
    else node = undefined;
    if (node === undefined) throw new Error(`no value at /${tokens.join('/')}`);
  }
  return node;
}

function getAt(doc: Record<string, unknown>, path: string): unknown {
  const tokens = pointer(path);
  const parent = parentOf(doc, tokens);
  const last = tokens.at(-1) ?? '';
  const value: unknown = Array.isArray(parent)
    ? (parent as unknown[])[Number(last)]
    : (parent as Record<string, unknown>)[last];
  if (value === undefined) throw new Error(`no value at ${path}`);
  return value;
}

function arrayIndex(arr: unknown[], token: string, forInsert: boolean): number {
  if (forInsert && token === '-') return arr.length;
  const i = Number(token);
  if (!/^\d+$/.test(token) || i > arr.length || (!forInsert && i === arr.length))
    throw new Error(`index ${token} is out of range`);
  return i;
}

function applyOp(doc: Record<string, unknown>, op: JsonPatchOp): void {
  if (op.op === 'move' || op.op === 'copy') {
    const value = structuredClone(getAt(doc, op.from ?? ''));
    if (op.op === 'move') applyOp(doc, { op: 'remove', path: op.from ?? '' });
    applyOp(doc, { op: 'add', path: op.path, value });
    return;
  }
  const tokens = pointer(op.path);
  const parent = parentOf(doc, tokens);
  const last = tokens.at(-1) ?? '';
  if (op.op === 'test') {
    if (JSON.stringify(getAt(doc, op.path)) !== JSON.stringify(op.value)) throw new Error('test failed');
    return;
  }
  if (Array.isArray(parent)) {
    const i = arrayIndex(parent, last, op.op === 'add');
    if (op.op === 'add') parent.splice(i, 0, structuredClone(op.value));
    else if (op.op === 'remove') parent.splice(i, 1);
    else if (op.op === 'replace') parent[i] = structuredClone(op.value);
    else throw new Error(`unknown op ${String(op.op)}`);
    return;
  }
  if (parent === null || typeof parent !== 'object') throw new Error(`no object at the parent of ${op.path}`);
  const obj = parent as Record<string, unknown>;
  if (op.op === 'add') obj[last] = structuredClone(op.value);
  else if (op.op === 'remove' || op.op === 'replace') {
    if (!(last in obj)) throw new Error(`no value at ${op.path}`);
    if (op.op === 'remove') delete obj[last];
    else obj[last] = structuredClone(op.value);
  } else throw new Error(`unknown op ${String(op.op)}`);
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

/** Splits at the first `sep`; `keyOptional` reads a lone value as ['', value] (generator `files`). */
function splitOnce(s: string, sep: string, keyOptional = false): [string, string] {
  const i = s.indexOf(sep);
  if (i < 0) return keyOptional ? ['', s] : [s, ''];
  return [s.slice(0, i), s.slice(i + sep.length)];
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
