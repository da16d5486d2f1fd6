import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { RenderedObject } from './manifest.js';

/** A problem found in one rendered object. */
export interface Finding {
  readonly source: string;
  readonly object: string;
  readonly message: string;
}

export function objectLabel(r: RenderedObject): string {
  return `${r.object.kind}/${r.object.metadata.name}`;
}

interface ModelInstance {
  validate(): void;
}
type ModelClass = new (data: unknown) => ModelInstance;

/**
 * Custom resources the manifests use, and the @kubernetes-models package that ships their schemas and
 * types (same layout as kubernetes-models: <package>/<group>/<version>/<Kind>).
 */
export const CRD_MODEL_PACKAGES: Readonly<Record<string, string>> = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'cert-manager.io': '@kubernetes-models/cert-manager',
};

// kubernetes-models lays out one module per kind: kubernetes-models/<group>/<version>/<Kind>, with the
// core group at kubernetes-models/v1/<Kind>. The group name is the directory name.
function modelPath(apiVersion: string, kind: string): string {
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return `${CRD_MODEL_PACKAGES[group] ?? 'kubernetes-models'}/${apiVersion}/${kind}`;
}

async function loadModel(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  if (!/^[a-z0-9.-]+(\/[a-z0-9]+)?$/.test(apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) return undefined;
  try {
    const mod = (await import(modelPath(apiVersion, kind))) as Record<string, unknown>;
    const cls = mod[kind];
    return typeof cls === 'function' ? (cls as ModelClass) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Validates each object against the Kubernetes OpenAPI schema shipped with kubernetes-models (types,
 * enums, required fields). That schema allows unknown fields, so {@link strictFieldFindings} covers those.
 */
export async function schemaFindings(objects: readonly RenderedObject[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const r of objects) {
    const Model = await loadModel(r.object.apiVersion, r.object.kind);
    if (!Model) {
      findings.push({
        source: r.source,
        object: objectLabel(r),
        message: `unknown apiVersion/kind ${r.object.apiVersion}/${r.object.kind}`,
      });
      continue;
    }
    try {
      new Model(r.object).validate();
    } catch (err) {
      findings.push({ source: r.source, object: objectLabel(r), message: (err as Error).message });
    }
  }
  return findings;
}

const here = dirname(fileURLToPath(import.meta.url));

// Library declarations never change during a run; parsing them once makes repeated checks (the tests
// run several) cost only the type-check.
const sourceFileCache = new Map<string, ts.SourceFile | undefined>();
function cachedSourceFile(fileName: string, load: () => ts.SourceFile | undefined): ts.SourceFile | undefined {
  if (!sourceFileCache.has(fileName)) sourceFileCache.set(fileName, load());
  return sourceFileCache.get(fileName);
}

/**
 * Rejects fields that Kubernetes does not know (a misspelt `readinessProbe` would otherwise be dropped
 * silently by the API server, as `kubectl apply` does without `--validate=strict`). Each object becomes
 * an object literal typed with its kubernetes-models interface, and TypeScript's excess-property and type
 * checks do the work at every depth.
 */
export function strictFieldFindings(objects: readonly RenderedObject[]): Finding[] {
  // The virtual file sits in this workspace so that module resolution finds kubernetes-models and
  // treats it as ESM (k8s/package.json has "type": "module"). It is never written to disk.
  const virtualFile = join(here, '__strict_fields_check__.ts');
  const lines: string[] = [];
  const ranges: { start: number; end: number; r: RenderedObject }[] = [];
  const importsByPath = new Map<string, string>();
  const unknown: Finding[] = [];

  objects.forEach((r) => {
    const { apiVersion, kind } = r.object;
    if (!/^[a-z0-9.-]+(\/[a-z0-9]+)?$/.test(apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) {
      unknown.push({
        source: r.source,
        object: objectLabel(r),
        message: `unknown apiVersion/kind ${apiVersion}/${kind}`,
      });
      return;
    }
    const path = modelPath(apiVersion, kind);
    if (!importsByPath.has(path)) importsByPath.set(path, `T${importsByPath.size}`);
  });

  const importRanges: { start: number; end: number; path: string }[] = [];
  let offset = 0;
  for (const [path, alias] of importsByPath) {
    const kind = path.slice(path.lastIndexOf('/') + 1);
    const line = `import type { I${kind} as ${alias} } from '${path}';`;
    importRanges.push({ start: offset, end: offset + line.length, path });
    lines.push(line);
    offset += line.length + 1;
  }
  objects.forEach((r, i) => {
    const alias = importsByPath.get(modelPath(r.object.apiVersion, r.object.kind));
    if (alias === undefined) return;
    const line = `export const o${i}: ${alias} = ${JSON.stringify(r.object)};`;
    ranges.push({ start: offset, end: offset + line.length, r });
    lines.push(line);
    offset += line.length + 1;
  });
  const text = lines.join('\n') + '\n';

  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    // No DOM and no @types: only what the model declarations need, which keeps the check fast.
    lib: ['lib.es2022.d.ts'],
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) =>
    fileName === virtualFile
      ? ts.createSourceFile(fileName, text, languageVersion, true)
      : cachedSourceFile(fileName, () => getSourceFile(fileName, languageVersion, onError, shouldCreate));
  host.fileExists = (fileName) => fileName === virtualFile || fileExists(fileName);
  host.readFile = (fileName) => (fileName === virtualFile ? text : readFile(fileName));

  const program = ts.createProgram([virtualFile], options, host);
  const sourceFile = program.getSourceFile(virtualFile);
  const diagnostics = [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)];

  const findings: Finding[] = [...unknown];
  for (const d of diagnostics) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const at = d.start ?? -1;
    const range = ranges.find((x) => at >= x.start && at < x.end);
    const importRange = importRanges.find((x) => at >= x.start && at < x.end);
    if (range) {
      findings.push({ source: range.r.source, object: objectLabel(range.r), message });
    } else if (importRange) {
      // An import that does not resolve means kubernetes-models has no such kind; the objects typed with
      // it are then unchecked, so each of them gets the finding.
      for (const r of objects) {
        if (modelPath(r.object.apiVersion, r.object.kind) !== importRange.path) continue;
        findings.push({
          source: r.source,
          object: objectLabel(r),
          message: `unknown apiVersion/kind ${r.object.apiVersion}/${r.object.kind}`,
        });
      }
    } else {
      findings.push({ source: '(strict field check)', object: '-', message });
    }
  }
  return findings;
}
