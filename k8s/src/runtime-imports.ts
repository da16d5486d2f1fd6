import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import ts from 'typescript';

interface PackageJson {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** A bare import a shipped workspace makes at run time that `npm prune --omit=dev` would remove. */
export interface UnshippedImport {
  readonly workspace: string;
  readonly file: string;
  readonly specifier: string;
  readonly packageName: string;
}

const BUILTINS = new Set(builtinModules);

function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
  return BUILTINS.has(name) ? undefined : name;
}

/** Specifiers of the imports that survive compilation (not `import type` / `export type`). */
export function runtimeImports(fileName: string, text: string): string[] {
  // Only the module-level import and re-export statements are parsed (with TypeScript, which tells
  // `import type` and `import { type A }` apart): parsing whole files, the generated Prisma client
  // included, takes seconds.
  const statements = (text.match(/^(?:import|export)\b[^;]*;/gm) ?? []).filter((st) =>
    /^import\s*['"]|\bfrom\s*['"]/.test(st),
  );
  const sf = ts.createSourceFile(fileName, statements.join('\n'), ts.ScriptTarget.ES2022, false);
  const out: string[] = [];
  for (const node of sf.statements) {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      out.push(node.moduleSpecifier.text);
    }
  }
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1] ?? '');
  return out;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) && !entry.endsWith('.d.ts') ? [full] : [];
  });
}

/**
 * The workspaces the image runs (the services and every workspace they depend on, transitively) and the
 * bare imports in their src/ (tests excluded) that are not among the importing workspace's own
 * dependencies. `problems` are the ones `npm prune --omit=dev` removes (package-lock.json marks them
 * `dev`): the image would fail on them. `undeclared` survive the prune only because another workspace
 * depends on them (hoisted to the root node_modules): they work, by luck.
 */
export function unshippedRuntimeImports(repoRoot: string): {
  shipped: string[];
  problems: UnshippedImport[];
  undeclared: UnshippedImport[];
} {
  const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as PackageJson;
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages?: Record<string, { dev?: boolean }>;
  };
  const keptAfterPrune = new Set(
    Object.entries(lock.packages ?? {})
      .filter(([path, entry]) => path.startsWith('node_modules/') && entry.dev !== true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  );
  const byName = new Map<string, { dir: string; pkg: PackageJson }>();
  for (const ws of root.workspaces ?? []) {
    const pkg = JSON.parse(readFileSync(join(repoRoot, ws, 'package.json'), 'utf8')) as PackageJson;
    byName.set(pkg.name, { dir: ws, pkg });
  }
  const deps = (pkg: PackageJson): string[] => [
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
  ];
  const shipped = new Set<string>();
  const queue = [...byName.values()].filter((w) => w.dir.startsWith('services/')).map((w) => w.pkg.name);
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (shipped.has(name)) continue;
    shipped.add(name);
    for (const d of deps(byName.get(name)!.pkg)) if (byName.has(d)) queue.push(d);
  }
  const problems: UnshippedImport[] = [];
  const undeclared: UnshippedImport[] = [];
  for (const name of shipped) {
    const { dir, pkg } = byName.get(name)!;
    const allowed = new Set([name, ...deps(pkg)]);
    for (const file of sourceFiles(join(repoRoot, dir, 'src'))) {
      for (const specifier of runtimeImports(file, readFileSync(file, 'utf8'))) {
        const packageName = packageOf(specifier);
        if (packageName === undefined || allowed.has(packageName)) continue;
        const finding = { workspace: dir, file: relative(repoRoot, file), specifier, packageName };
        if (keptAfterPrune.has(packageName) || byName.has(packageName)) undeclared.push(finding);
        else problems.push(finding);
      }
    }
  }
  return { shipped: [...shipped].map((n) => byName.get(n)!.dir).sort(), problems, undeclared };
}
