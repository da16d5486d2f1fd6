import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ActionType, GatewayFrame, WorkerFrame, type ClientCommand } from './index.js';

const protoDir = fileURLToPath(new URL('..', import.meta.url));

describe('table contract', () => {
  it('round-trips a typed client command with its command_id and trace context through the wire format', () => {
    const frame: GatewayFrame = {
      frame: {
        $case: 'command',
        command: {
          requestId: 'r1',
          connectionId: 'c1',
          userId: 'u1',
          tableId: 't1',
          commandId: 'k1',
          traceContext: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
          command: {
            $case: 'act',
            act: {
              handId: '11111111-1111-4111-8111-111111111111',
              turnToken: 'AAAAAAAAAAAAAAAAAAAA',
              action: ActionType.ACTION_TYPE_RAISE,
              amount: 2 ** 40 + 1,
              cards: [],
            },
          },
        },
      },
    };
    expect(GatewayFrame.decode(GatewayFrame.encode(frame).finish())).toEqual(frame);
  });

  it('tells an absent optional field from a zero one', () => {
    const command = (c: ClientCommand['command'], commandId?: string): GatewayFrame => ({
      frame: {
        $case: 'command',
        command: {
          requestId: 'r',
          connectionId: 'c',
          userId: 'u',
          tableId: 't',
          traceContext: {},
          ...(commandId !== undefined ? { commandId } : {}),
          command: c,
        },
      },
    });
    const roundTrip = (f: GatewayFrame) => {
      const decoded = GatewayFrame.decode(GatewayFrame.encode(f).finish()).frame;
      if (decoded?.$case !== 'command') throw new Error('not a command');
      return decoded.command;
    };
    const fromStart = roundTrip(command({ $case: 'resync', resync: { fromTableSeq: 0 } }));
    const fromNowhere = roundTrip(command({ $case: 'resync', resync: {} }));
    expect(fromStart.command).toEqual({ $case: 'resync', resync: { fromTableSeq: 0 } });
    expect(fromNowhere.command?.$case === 'resync' && fromNowhere.command.resync.fromTableSeq).toBeUndefined();
    expect(fromNowhere.commandId).toBeUndefined();
    expect(roundTrip(command({ $case: 'sitOut', sitOut: {} }, 'k')).commandId).toBe('k');
  });

  it('carries a spectator attach', () => {
    const frame: GatewayFrame = {
      frame: {
        $case: 'attach',
        attach: {
          requestId: 'r',
          connectionId: 'c',
          userId: 'u',
          userName: 'Sam',
          tableId: 't',
          traceContext: {},
          spectate: true,
        },
      },
    };
    expect(GatewayFrame.decode(GatewayFrame.encode(frame).finish())).toEqual(frame);
  });

  it('carries at_table_seq as a number on acks, and a refusal with its details', () => {
    const ack: WorkerFrame = {
      frame: { $case: 'ack', ack: { requestId: 'r', tableId: 't', atTableSeq: 2 ** 40 + 3 } },
    };
    expect(WorkerFrame.decode(WorkerFrame.encode(ack).finish())).toEqual(ack);
    const refusal: WorkerFrame = {
      frame: {
        $case: 'error',
        error: {
          requestId: 'r',
          tableId: 't',
          code: 'invalid_amount',
          message: 'that amount is not allowed',
          min: 0,
          max: 200,
        },
      },
    };
    const decoded = WorkerFrame.decode(WorkerFrame.encode(refusal).finish());
    expect(decoded).toEqual(refusal);
    expect(decoded.frame?.$case === 'error' && decoded.frame.error.reason).toBeUndefined();
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
