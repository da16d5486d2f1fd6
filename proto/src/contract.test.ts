import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GatewayFrame, WorkerFrame } from './index.js';

const protoDir = fileURLToPath(new URL('..', import.meta.url));

describe('table contract', () => {
  it('round-trips a client command with its trace context through the wire format', () => {
    const frame: GatewayFrame = {
      frame: {
        $case: 'command',
        command: {
          requestId: 'r1',
          connectionId: 'c1',
          userId: 'u1',
          tableId: 't1',
          commandJson: Buffer.from('{"type":"ping"}'),
          traceContext: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
        },
      },
    };
    const decoded = GatewayFrame.decode(GatewayFrame.encode(frame).finish());
    expect(decoded.frame?.$case).toBe('command');
    if (decoded.frame?.$case !== 'command') return;
    expect(decoded.frame.command.traceContext).toEqual(
      frame.frame?.$case === 'command' ? frame.frame.command.traceContext : {},
    );
    expect(Buffer.from(decoded.frame.command.commandJson).toString()).toBe('{"type":"ping"}');
  });

  it('carries table_seq as a number on acks', () => {
    const frame: WorkerFrame = {
      frame: { $case: 'ack', ack: { requestId: 'r', tableId: 't', tableSeq: 2 ** 40 + 3 } },
    };
    const decoded = WorkerFrame.decode(WorkerFrame.encode(frame).finish());
    expect(decoded).toEqual(frame);
  });

  it('committed ts-proto output matches what `npm run gen` produces', () => {
    const out = mkdtempSync(join(tmpdir(), 'felt-proto-'));
    try {
      const buf = join(protoDir, '..', 'node_modules', '.bin', 'buf');
      const r = spawnSync(buf, ['generate', '-o', out], { cwd: protoDir, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const rel = join('gen', 'felt', 'table', 'v1', 'table.ts');
      expect(readFileSync(join(out, 'src', rel), 'utf8')).toBe(readFileSync(join(protoDir, 'src', rel), 'utf8'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
