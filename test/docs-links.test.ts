// The docs name files and sections of this repository; this keeps those names true. In every
// Markdown doc (docs/**/*.md and each README.md), a relative link must reach a file or folder that
// exists (and, into a Markdown file, a heading it has), and a repository path written in the text,
// backticked or not, must name a file or folder that exists. Fenced code blocks are examples and are
// not read; URLs, globs and placeholders (`<table>`, `…`) are not paths. Reads files only: no
// services.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Build output, dependencies and local state: never what a doc should point a reader at. */
const NOT_SOURCE = new Set(['node_modules', 'dist', 'build', 'coverage', 'artifacts', '.git', '.felt', '.vite']);

/** What a path in prose may end with to count as a file name. */
const FILE_EXTENSION = /\.(ts|tsx|js|mjs|cjs|md|json|ya?ml|proto|sql|prisma|toml|css|html|sh|env|example)$/;

/** Every file and folder of the repository, as posix paths from its root. */
function listRepository(): { files: Set<string>; folders: Set<string> } {
  const files = new Set<string>();
  const folders = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      if (NOT_SOURCE.has(entry.name)) continue;
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        folders.add(path);
        walk(path);
      } else {
        files.add(path);
      }
    }
  };
  walk('');
  return { files, folders };
}

const repo = listRepository();
const topLevel = new Set([...repo.files, ...repo.folders].filter((p) => !p.includes('/')));
const exists = (path: string): boolean => repo.files.has(path) || repo.folders.has(path);

/** Every Markdown file under docs/, and every README.md. */
const docs = [...repo.files].filter((p) => (p.startsWith('docs/') && p.endsWith('.md')) || /(^|\/)README\.md$/.test(p));

/**
 * Names the repository's .gitignore files list literally (`secrets.env`, `.felt`): files an operator
 * or a run creates, which a doc may name although no clone has them.
 */
const LOCAL_ONLY = new Set(
  [...repo.files]
    .filter((p) => p.endsWith('.gitignore'))
    .flatMap((p) => readFileSync(join(ROOT, p), 'utf8').split('\n'))
    .map((line) => line.trim().replace(/^\/|\/$/g, ''))
    .filter((line) => line !== '' && !/[#!*?[\]/]/.test(line)),
);

/** Lines outside fenced code blocks, with their line numbers. */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | null = null;
  text.split('\n').forEach((line, i) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return;
    }
    if (fence === null) out.push({ line: i + 1, text: line });
  });
  return out;
}

/** GitHub's anchor for each heading of a Markdown text (`## Failover and drain` → `failover-and-drain`). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text: line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/**
 * The repository path a code span or a word of prose names, or undefined when it is not one: a
 * relative path of plain segments that ends in a file extension or starts at a top-level folder of
 * the repository (`src/...` too), or a bare file name (lower-case kebab, or any `*.md`).
 */
function pathIn(token: string): string | undefined {
  const path = token.replace(/^\.\//, '').replace(/\/$/, '');
  if (!/^[\w.@-]+(\/[\w.@-]+)*$/.test(path) || path.startsWith('@') || path.startsWith('-')) return undefined;
  const segments = path.split('/');
  if (segments.some((s) => NOT_SOURCE.has(s) || LOCAL_ONLY.has(s) || s === '.' || s === '..')) return undefined;
  if (segments.length === 1) {
    return /\.md$/i.test(path) || (/^[a-z0-9][a-z0-9.-]*$/.test(path) && FILE_EXTENSION.test(path)) ? path : undefined;
  }
  const first = segments[0]!;
  return FILE_EXTENSION.test(path) || topLevel.has(first) || first === 'src' ? path : undefined;
}

/**
 * Whether `path`, written in `doc`, names something that exists: from the repository root, from the
 * doc's folder, or as the tail of a longer path (`src/actor/mailbox.ts` inside a service's section).
 */
function resolves(path: string, doc: string): boolean {
  if (exists(path) || exists(posix.join(posix.dirname(doc), path))) return true;
  const tail = `/${path}`;
  for (const p of repo.files) if (p.endsWith(tail)) return true;
  for (const p of repo.folders) if (p.endsWith(tail)) return true;
  return false;
}

/** Each problem of `doc` (its text read from disk unless given) as `<doc>:<line>: <what is wrong>`. */
function check(doc: string, text = readFileSync(join(ROOT, doc), 'utf8')): string[] {
  const problems: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (file: string): Set<string> => {
    let set = anchorCache.get(file);
    if (!set) anchorCache.set(file, (set = anchors(readFileSync(join(ROOT, file), 'utf8'))));
    return set;
  };

  for (const { line, text: raw } of proseLines(text)) {
    const where = `${doc}:${line}`;
    let rest = raw;

    // Inline links `[text](target "title")` and reference definitions `[label]: target`.
    const links = [...raw.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g), ...raw.matchAll(/^\s{0,3}\[[^\]]+\]:\s*(\S+)/g)];
    for (const [whole, target] of links) {
      rest = rest.replace(whole, ']');
      if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue;
      const [file = '', anchor] = target!.split('#');
      const resolved = file === '' ? doc : posix.join(posix.dirname(doc), decodeURI(file)).replace(/\/$/, '');
      if (!exists(resolved)) {
        problems.push(`${where}: link to a missing file: ${target}`);
      } else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
        problems.push(`${where}: link to a missing section: ${target}`);
      }
    }

    const spans: string[] = [];
    rest = rest.replace(/(`+)([^`]+?)\1/g, (_m, _ticks: string, code: string) => {
      spans.push(code.trim());
      return ' ';
    });
    const words = rest
      .split(/\s+/)
      .filter((w) => !w.includes('://'))
      .map((w) => w.replace(/^[("'*_[]+/, '').replace(/[)"'*_,.;:!?\]]+$/, ''));

    for (const token of [...spans, ...words]) {
      const path = pathIn(token);
      if (path === undefined || resolves(path, doc)) continue;
      problems.push(`${where}: names a missing path: ${path}`);
    }
  }
  return problems;
}

describe('docs name files that exist', () => {
  it('finds the docs', () => {
    expect(docs).toContain('README.md');
    expect(docs).toContain('docs/architecture.md');
    expect(docs.length).toBeGreaterThan(5);
  });

  it.each(docs)('%s', (doc) => {
    expect(check(doc)).toEqual([]);
  });

  // The checker itself: a test that cannot fail is a defect.
  it('reports missing files, folders and sections, and nothing else', () => {
    const sample = 'docs/architecture.md';
    expect(pathIn('services/table-worker/src/actor/table-view.ts')).toBeDefined();
    expect(resolves('services/table-worker/src/actor/table-view.ts', sample)).toBe(false);
    expect(resolves('src/ownership/keys.ts', sample)).toBe(false);
    expect(resolves('live-table.ts', sample)).toBe(true);
    expect(resolves('src/grpc/table-service.ts', sample)).toBe(true);
    expect(resolves('dev/contracts.md', sample)).toBe(true);
    expect(pathIn('DESIGN-NOTES.md')).toBe('DESIGN-NOTES.md');
    expect(resolves('DESIGN-NOTES.md', sample)).toBe(false);
    for (const notAPath of [
      '@felt/engine',
      'P checkpoint:<table>',
      'scripts/bench/*.bench.ts',
      'migrations/<timestamp>_<name>/migration.sql',
      'node dist/main.js',
      'dist/telemetry.js',
      'text/plain',
      'uWebSockets.js',
      'https://example.com/a.md',
      'and/or',
      'secrets.env',
      'k8s/overlays/example/secrets.env',
      '.felt/session-secret',
      '--project',
    ]) {
      expect(pathIn(notAPath), notAPath).toBeUndefined();
    }
    const doc = 'docs/engine.md';
    const text = [
      'Stale: `services/table-worker/src/actor/table-view.ts`, src/ownership/keys.ts and DESIGN-NOTES.md.',
      'Links: [gone](nope.md), [no such section](architecture.md#nope), [fine](architecture.md#where-things-live),',
      '[here](#house-rules), [the web](https://example.com/missing.md) and `packages/engine/src/hand/hand.ts`.',
      '[ref]: ../missing/README.md',
      '```sh',
      'cat not/a/real/file.ts',
      '```',
    ].join('\n');
    expect(check(doc, text)).toEqual([
      `${doc}:1: names a missing path: services/table-worker/src/actor/table-view.ts`,
      `${doc}:1: names a missing path: src/ownership/keys.ts`,
      `${doc}:1: names a missing path: DESIGN-NOTES.md`,
      `${doc}:2: link to a missing file: nope.md`,
      `${doc}:2: link to a missing section: architecture.md#nope`,
      `${doc}:4: link to a missing file: ../missing/README.md`,
    ]);
    const heads = anchors(
      '# Felt\n\n## Failover and drain\n\n```\n## not a heading\n```\n### `npm run bench`\n## Failover and drain\n',
    );
    expect([...heads]).toEqual(['felt', 'failover-and-drain', 'npm-run-bench', 'failover-and-drain-1']);
  });
});
