import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractEnvVars } from './contracts.js';
import { podSecurityFindings, referenceFindings, type ReferenceContext } from './references.js';
import { renderKustomization, type RenderResult } from './render.js';
import { schemaFindings, strictFieldFindings, type Finding } from './schema.js';

export * from './contracts.js';
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

/** Secrets the operator provides outside the base (see docs/operations.md). */
export const EXTERNAL_SECRETS: ReadonlySet<string> = new Set(['felt-tls']);

export function defaultReferenceContext(): ReferenceContext {
  return {
    allowedEnv: contractEnvVars(readFileSync(join(repoRoot, 'docs/dev/contracts.md'), 'utf8')),
    helperEnv: HELPER_ENV,
    externalSecrets: EXTERNAL_SECRETS,
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
