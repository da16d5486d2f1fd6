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

  it('round-trips the engine-blind commands: 32-byte values, a shuffle with both kinds of opening, shares', () => {
    const b = (fill: number) => Buffer.alloc(32, fill);
    const handId = '11111111-1111-4111-8111-111111111111';
    const commands: ClientCommand['command'][] = [
      { $case: 'blindKey', blindKey: { handId, y: b(1), c: b(2), s: b(3) } },
      {
        $case: 'blindShuffle',
        blindShuffle: {
          handId,
          output: [
            { c1: b(4), c2: b(5) },
            { c1: b(6), c2: b(7) },
          ],
          openings: [
            { opening: { $case: 'seed', seed: b(8) } },
            { opening: { $case: 'perm', perm: { perm: [1, 0], rand: [b(9), b(10)] } } },
            // A zero permutation entry and an all-zero value are sent, not dropped.
            { opening: { $case: 'perm', perm: { perm: [0, 1], rand: [b(0), b(255)] } } },
          ],
        },
      },
      {
        $case: 'blindShares',
        blindShares: {
          handId,
          shares: [
            { position: 0, d: b(11), c: b(12), s: b(13) },
            { position: 51, d: b(14), c: b(15), s: b(16) },
          ],
        },
      },
    ];
    for (const command of commands) {
      const frame: GatewayFrame = {
        frame: {
          $case: 'command',
          command: { requestId: 'r', connectionId: 'c', userId: 'u', tableId: 't', traceContext: {}, command },
        },
      };
      const bytes = GatewayFrame.encode(frame).finish();
      expect(GatewayFrame.decode(bytes), command?.$case).toEqual(frame);
    }
    // Raw bytes: a 52-card shuffle's output is 52 × 2 × 32 bytes plus framing, half its hex.
    const output = Array.from({ length: 52 }, (_, i) => ({ c1: b(i), c2: b(i + 1) }));
    const size = GatewayFrame.encode({
      frame: {
        $case: 'command',
        command: {
          requestId: 'r',
          connectionId: 'c',
          userId: 'u',
          tableId: 't',
          traceContext: {},
          command: { $case: 'blindShuffle', blindShuffle: { handId, output, openings: [] } },
        },
      },
    }).finish().length;
    expect(size).toBeGreaterThan(52 * 64);
    expect(size).toBeLessThan(52 * 64 + 52 * 8 + 100);
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
