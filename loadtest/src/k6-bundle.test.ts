import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const loadtestDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const k6Dir = join(loadtestDir, 'k6');
const entries = readdirSync(k6Dir)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => f.slice(0, -3))
  .sort();

/** Every module specifier a bundle loads: static and dynamic imports, re-exports and require calls. */
function bundleImports(code: string): string[] {
  return ts.preProcessFile(code, true, true).importedFiles.map((f) => f.fileName);
}

/** Names a module exports, as k6 sees them (it needs `default` and reads `options`, `setup`). */
function bundleExports(code: string): string[] {
  const sf = ts.createSourceFile('bundle.js', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const names: string[] = [];
  for (const stmt of sf.statements) {
    if (ts.isExportDeclaration(stmt) && stmt.exportClause && ts.isNamedExports(stmt.exportClause)) {
      for (const el of stmt.exportClause.elements) names.push(el.name.text);
    }
  }
  return names.sort();
}

// Declaration files are parsed once for all the probes below.
const sourceFiles = new Map<string, ts.SourceFile | undefined>();

/** Type-checks `source` as if it were a file in loadtest/k6, under k6/tsconfig.json. */
function k6TypeErrors(source: string): string[] {
  const configPath = join(k6Dir, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('unreadable k6/tsconfig.json');
  const virtual = join(k6Dir, '__typecheck_probe__.ts');
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (name, lang, onError, create) =>
    name === virtual
      ? ts.createSourceFile(name, source, lang, true)
      : sourceFiles.has(name)
        ? sourceFiles.get(name)
        : sourceFiles.set(name, getSourceFile(name, lang, onError, create)).get(name);
  host.fileExists = (name) => name === virtual || fileExists(name);
  const program = ts.createProgram([virtual], parsed.options, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(virtual))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('k6 scripts', () => {
  let build: ReturnType<typeof spawnSync>;
  beforeAll(() => {
    // The same command SREs run: typecheck with k6's types, then bundle with esbuild.
    build = spawnSync('npm', ['run', 'build:k6'], { cwd: loadtestDir, encoding: 'utf8' });
  }, 120_000);

  it('typecheck and bundle with `npm run build:k6`', () => {
    expect(build.status, `${String(build.stdout)}\n${String(build.stderr)}`).toBe(0);
    expect(entries).toEqual(['lobby', 'table-sessions']);
  });

  it.each(entries)('%s.js imports only k6 modules and exports what k6 runs', (name) => {
    const code = readFileSync(join(k6Dir, 'dist', `${name}.js`), 'utf8');
    const imports = bundleImports(code);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((m) => !/^k6(\/[a-z0-9-]+)*$/.test(m))).toEqual([]);
    const exports = bundleExports(code);
    expect(exports).toContain('default');
    expect(exports).toContain('options');
    // The wire shapes are bundled in, not imported from the Node runner at run time.
    expect(code).toContain('"felt_session"');
    expect(code).toContain('"/api/auth/login"');
  });

  it('table-sessions.js declares its thresholds and a setup that creates the rooms', () => {
    const code = readFileSync(join(k6Dir, 'dist', 'table-sessions.js'), 'utf8');
    expect(bundleExports(code)).toEqual(['default', 'options', 'setup', 'teardown']);
    expect(code).toContain('"join_table"');
    for (const metric of ['felt_ping_rtt', 'felt_join_ok', 'felt_ws_errors', 'ws_connecting']) {
      expect(code).toContain(metric);
    }
  });

  it('table-sessions.js plays by default, with rate-based thresholds and ack and table_state trends', () => {
    const code = readFileSync(join(k6Dir, 'dist', 'table-sessions.js'), 'utf8');
    expect(code).toMatch(/envString\("MODE", "play"\)/);
    // Actions, sit-ins and rebuys are sent as the protocol and the lobby spell them (wire.ts, checked by wire.test.ts).
    for (const s of ['"action"', '"sit_in"', '/top-up', '"ack"', '"hand_result"']) expect(code).toContain(s);
    for (const threshold of [
      'felt_join_ok: ["rate>0.99"]',
      'felt_action_ok: ["rate>0.99"]',
      'felt_session_ok: ["rate>0.99"]',
      'checks: ["rate>0.99"]',
      'felt_ack_ms: ["p(50)<50", "p(99)<250"]',
      'felt_state_ms: ["p(99)<300"]',
    ]) {
      expect(code).toContain(threshold);
    }
    // Load accounts are logged in with the same names and password template as the Node runner.
    expect(code).toContain('"felt-load-password"');
    expect(code).toContain('"load-"');
  });

  it('the import check catches non-k6 modules', () => {
    const code = [
      'import { check } from "k6";',
      'import fs from "node:fs";',
      'export * from "./local.js";',
      'const x = require("lodash");',
      'await import("k6/x/sql");',
    ].join('\n');
    expect(bundleImports(code)).toEqual(['k6', 'node:fs', './local.js', 'lodash', 'k6/x/sql']);
  });

  it('the typecheck applies k6 types and no Node types', () => {
    expect(k6TypeErrors('import http from "k6/http";\nexport default function () { http.get("http://x"); }\n')).toEqual(
      [],
    );
    expect(k6TypeErrors('import http from "k6/http";\nhttp.get(42);\n').join('\n')).toMatch(
      /Argument of type 'number' is not assignable/,
    );
    expect(k6TypeErrors('process.exit(1);\n').join('\n')).toMatch(/Cannot find name 'process'/);
    expect(k6TypeErrors('import { readFileSync } from "node:fs";\n').join('\n')).toMatch(/node:fs/);
  }, 60_000);
});
