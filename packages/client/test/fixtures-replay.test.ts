// Recorded traffic (packages/protocol/fixtures, written by test/sdk-record.test.ts) replayed through the
// reducer and the whole SDK: the protocol's schemas and this client cannot drift apart unnoticed.
import { readdirSync, readFileSync } from 'node:fs';
import { serverMessageSchema, stateHash, type TableState } from '@felt/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PrivacyAuditor, settlePrivacyAudits } from '../src/audit/privacy-audit.js';
import { FeltClient } from '../src/sdk/felt-client.js';
import type { HandFairness } from '../src/sdk/hand-fairness.js';
import { initialTableView, reduceTable, type ReducibleMessage, type TableView } from '../src/sdk/reducer.js';
import { FakeSocketFactory } from './support/fake-socket.js';
import { FakeTimers } from './support/fake-timers.js';

interface Recipient {
  name: string;
  role: 'player' | 'spectator';
  seat: number | null;
  messages: Record<string, unknown>[];
}

interface Fixture {
  format: string;
  game: string;
  hands: number;
  recipients: Recipient[];
}

const DIR = new URL('../../protocol/fixtures/', import.meta.url);
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const fixtures = files.map((f) => ({ file: f, fixture: JSON.parse(readFileSync(new URL(f, DIR), 'utf8')) as Fixture }));

const STREAM_TYPES = new Set(['ack', 'error', 'pong']);

function tableMessages(r: Recipient): ReducibleMessage[] {
  return r.messages.filter((m) => !STREAM_TYPES.has(String(m.type))) as unknown as ReducibleMessage[];
}

/** The last snapshot a recipient received, by table_seq (a resync's snapshot included). */
function lastSnapshot(r: Recipient): TableState {
  let last: TableState | undefined;
  for (const m of tableMessages(r)) {
    const s = m.type === 'table_state' ? m : m.type === 'resync_response' ? m.snapshot : undefined;
    if (s && (!last || s.table_seq > last.table_seq)) last = s;
  }
  if (!last) throw new Error(`${r.name} received no snapshot`);
  return last;
}

function replay(messages: readonly ReducibleMessage[]): { view: TableView; losses: number } {
  let view = initialTableView(String(messages[0]?.table_id));
  let losses = 0;
  for (const m of messages) {
    const r = reduceTable(view, m);
    if (r.lossDetected) losses++;
    view = r.view;
  }
  return { view, losses };
}

describe('recorded traffic fixtures', () => {
  it('exist for Hold’em at least, each with players and a spectator', () => {
    expect(files).toContain('holdem-nl.json');
    for (const { file, fixture } of fixtures) {
      expect(fixture.format, file).toBe('felt-traffic/1');
      expect(
        fixture.recipients.some((r) => r.role === 'spectator'),
        file,
      ).toBe(true);
      expect(fixture.recipients.filter((r) => r.role === 'player').length, file).toBeGreaterThanOrEqual(2);
    }
  });

  describe.each(fixtures)('$file', ({ fixture }) => {
    it('every message is valid under the @felt/protocol schemas', () => {
      for (const r of fixture.recipients) {
        for (const m of r.messages) {
          const parsed = serverMessageSchema.safeParse(m);
          expect(parsed.error, `${r.name}: ${JSON.stringify(m).slice(0, 160)}`).toBeUndefined();
        }
      }
    });

    it('every snapshot’s state_hash matches its bytes as recorded', () => {
      let checked = 0;
      for (const r of fixture.recipients) {
        for (const m of tableMessages(r)) {
          const s = m.type === 'table_state' ? m : m.type === 'resync_response' ? m.snapshot : undefined;
          if (!s) continue;
          expect(stateHash(s as unknown as Record<string, unknown>)).toBe(s.state_hash);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(fixture.hands * 4);
    });

    it('the reducer ends in each recipient’s last snapshot, with its state_hash, and sees no loss', () => {
      for (const r of fixture.recipients) {
        const { view, losses } = replay(tableMessages(r));
        const last = lastSnapshot(r);
        expect(view.state, r.name).toEqual(last);
        expect(stateHash(view.state as unknown as Record<string, unknown>)).toBe(last.state_hash);
        expect(view.lastTableSeq).toBe(Math.max(...tableMessages(r).map((m) => m.table_seq)));
        expect(losses, r.name).toBe(0);
        if (r.role === 'spectator') {
          expect(view.role).toBe('spectator');
          expect(view.state?.hero).toBeUndefined();
        } else {
          expect(view.state?.hero?.seat).toBe(r.seat);
        }
      }
    });

    it('any permutation with duplicates of a recipient’s stream converges to the same last snapshot', () => {
      for (const r of fixture.recipients) {
        const messages = tableMessages(r);
        const last = lastSnapshot(r);
        fc.assert(
          fc.property(fc.array(fc.nat(messages.length - 1), { maxLength: 20 }), fc.nat(), (dups, seed) => {
            const all = [...messages, ...dups.map((i) => messages[i]!)];
            const [shuffled] = fc.sample(fc.shuffledSubarray(all, { minLength: all.length }), { numRuns: 1, seed });
            expect(replay(shuffled!).view.state).toEqual(last);
          }),
          { seed: 42, numRuns: 25 },
        );
      }
    });

    it('nobody received another seat’s hidden cards, the deck or a seed before its reveal', () => {
      const auditors = fixture.recipients.map((r) => {
        const auditor = new PrivacyAuditor(r.seat);
        for (const m of r.messages) auditor.observe(m);
        expect(auditor.messages).toBe(r.messages.length);
        return auditor;
      });
      settlePrivacyAudits(auditors);
      fixture.recipients.forEach((r, i) => expect(auditors[i]!.violations, r.name).toEqual([]));
    });

    it('through the whole SDK: no hash mismatch, no resync, and every revealed hand verifies', () => {
      for (const r of fixture.recipients) {
        const timers = new FakeTimers();
        const sockets = new FakeSocketFactory();
        const client = new FeltClient({
          gatewayUrls: 'ws://recorded/ws',
          socketFactory: sockets.create,
          timers,
          random: () => 0,
          pingIntervalMs: 0,
          // Replaying, the client must not answer seed_commit: the recorded seeds are already in the reveals.
          clientSeeds: false,
        });
        client.connect();
        sockets.last.acceptOpen();
        const session = client.join(String(r.messages[0]?.table_id), { spectate: r.role === 'spectator' });
        const verdicts: HandFairness[] = [];
        session.on('fairness', (v) => verdicts.push(v));
        for (const m of r.messages) sockets.last.deliver(m);
        expect(client.stats, r.name).toMatchObject({
          invalidMessages: 0,
          hashMismatches: 0,
          resyncs: 0,
          lossesDetected: 0,
          anomalies: 0,
        });
        expect(client.stats.hashChecks).toBeGreaterThan(0);
        expect(session.state).toEqual(lastSnapshot(r));
        const reveals = r.messages.filter((m) => m.type === 'seed_reveal').length;
        expect(reveals, r.name).toBeGreaterThanOrEqual(1);
        expect(verdicts).toHaveLength(reveals);
        for (const v of verdicts) {
          expect(v.problems, `${r.name} ${v.handId}`).toEqual([]);
          expect(v.ok).toBe(true);
        }
        client.close();
      }
    });
  });
});
