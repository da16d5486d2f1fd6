/**
 * kustomize's configMapGenerator and secretGenerator as the offline renderer runs them: the
 * generated objects (create, merge or replace) and the content-hash suffixes of their names.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import {
  ManifestError,
  ManifestErrorCode,
  podContainers,
  podSpecOf,
  type K8sObject,
  type RenderedObject,
} from './manifest.js';

export interface GeneratorOptions {
  disableNameSuffixHash?: boolean;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  immutable?: boolean;
}

export interface GeneratorArgs {
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

/** Objects accumulated while a kustomization and the bases and components it includes are rendered. */
export interface Accumulator {
  readonly objects: RenderedObject[];
  /** Generated ConfigMaps and Secrets, with whether kustomize appends a content hash to their name. */
  readonly generated: Map<RenderedObject, { hash: boolean }>;
  readonly unlistedFiles: string[];
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

interface GenerateContext {
  readonly acc: Accumulator;
  readonly kFile: string;
  readonly source: string;
  readonly read: (path: string) => string;
}

export function generate(
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
export function applyNameSuffixHashes(acc: Accumulator): void {
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

export /** Splits at the first `sep`; `keyOptional` reads a lone value as ['', value] (generator `files`). */
function splitOnce(s: string, sep: string, keyOptional = false): [string, string] {
  const i = s.indexOf(sep);
  if (i < 0) return keyOptional ? ['', s] : [s, ''];
  return [s.slice(0, i), s.slice(i + sep.length)];
}
