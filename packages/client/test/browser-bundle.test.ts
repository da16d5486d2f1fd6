// The SDK must run in a browser: bundle its public entry for the browser platform, where any Node
// built-in import fails the build, and check the bundle carries the SDK.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const src = (p: string): string => fileURLToPath(new URL(`../../${p}`, import.meta.url));

describe('browser bundle', () => {
  it('@felt/client bundles for the browser with no Node built-in', async () => {
    const result = await build({
      entryPoints: [src('client/src/index.ts')],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      logLevel: 'silent',
      alias: {
        '@felt/protocol': src('protocol/src/index.ts'),
        '@felt/engine': src('engine/src/index.ts'),
        '@felt/blind': src('blind/src/index.ts'),
      },
      metafile: true,
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((i) => i.includes('node:') || /(^|\/)node_modules\/ws\//.test(i))).toBe(false);
    const text = result.outputFiles[0]!.text;
    expect(text).toContain('FeltClient');
    expect(text).toContain('resync_request');
    expect(text).toContain('blind_shares');
  });
});
