/**
 * The offline kustomize renderer: `renderKustomization` turns a kustomization directory into the
 * objects `kubectl apply -k` would send. Objects and their parsing are in manifest.ts, the generators
 * and name hashes in generators.ts, JSON 6902 operations in json-patch.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  applyNameSuffixHashes,
  generate,
  splitOnce,
  type Accumulator,
  type GeneratorArgs,
  type GeneratorOptions,
} from './generators.js';
import { applyOp, type JsonPatchOp } from './json-patch.js';
import {
  imageName,
  ManifestError,
  ManifestErrorCode,
  parseManifestFile,
  podContainers,
  readYamlMapping,
  type K8sObject,
  type RenderedObject,
} from './manifest.js';

export { kustomizeNameHash, parseEnvFile } from './generators.js';
export {
  imageName,
  ManifestError,
  ManifestErrorCode,
  parseManifestFile,
  podContainers,
  podSpecOf,
  type K8sObject,
  type RenderedObject,
} from './manifest.js';

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

function applyImageOverride(image: string, o: ImageOverride): string {
  const name = o.newName ?? imageName(image);
  if (o.digest !== undefined) return `${name}@${o.digest}`;
  const tag = o.newTag ?? (image.length > imageName(image).length ? image.slice(imageName(image).length + 1) : '');
  return tag === '' ? name : `${name}:${tag}`;
}
