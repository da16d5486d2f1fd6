import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../error-codes.js';
import { CLIENT_FRAME_TYPES, serverMessageSchema } from '../messages.js';
import { renderProtocolDoc } from './render-protocol-doc.js';

const docPath = fileURLToPath(new URL('../../../../docs/protocol.md', import.meta.url));

describe('docs/protocol.md', () => {
  it('is what the zod schemas generate (FELT_UPDATE_DOCS=1 rewrites it)', () => {
    const fresh = renderProtocolDoc();
    if (process.env.FELT_UPDATE_DOCS === '1') writeFileSync(docPath, fresh);
    let committed = '';
    try {
      committed = readFileSync(docPath, 'utf8');
    } catch {
      // Missing file: fails below with the diff.
    }
    expect(committed, 'docs/protocol.md is stale: run `npm run gen:docs -w @felt/protocol`').toBe(fresh);
  });

  it('documents every client frame type, error code and close code', () => {
    const doc = renderProtocolDoc();
    for (const t of CLIENT_FRAME_TYPES) expect(doc).toContain(`### \`${t}\``);
    for (const o of serverMessageSchema.options) expect(doc).toContain(`### \`${o.shape.type.value}\``);
    for (const code of ERROR_CODES) expect(doc).toContain(`| \`${code}\` |`);
    expect(doc).toContain('`not_member`');
    expect(doc).toContain('| 1009 |');
    expect(doc).toContain('| 4013 |');
  });
});
