import { decryptionShare, generateKey, initialDeck, jointKey, proveKey, shuffleDeck } from '@felt/blind';
import { describe, expect, it } from 'vitest';
import {
  BLIND_MAX_CARDS,
  CLIENT_FRAME_TYPES,
  ErrorCode,
  errorMessageSchema,
  parseClientFrame,
  TABLE_COMMAND_TYPES,
  type ClientFrame,
} from './index.js';

const TABLE = 't-1';
const HAND = '0b9f6c1e-3d2a-4f5b-8c7d-9e0f1a2b3c4d';
const CARDS = '23456789TJQKA'.split('').flatMap((r) => 'cdhs'.split('').map((s) => r + s));
const ctx = (what: string) => `felt-eb|${TABLE}|${HAND}|${what}`;

// Real @felt/blind output at a small λ: two players' keys, one shuffle of the 52 cards, shares.
const keys = [generateKey(), generateKey()];
const proofs = keys.map((k, seat) => proveKey(k, ctx(`key|${seat}`)));
const joint = jointKey(keys.map((k) => k.Y));
const shuffled = shuffleDeck(initialDeck(CARDS), joint, ctx('shuffle|0'), { lambda: 8 });
const shares = [0, 1, 2].map((position) => ({
  position,
  ...decryptionShare(keys[1]!, shuffled.output[position]!, ctx(`share|${position}|1`)),
}));

const keyFrame = { type: 'blind_key', table_id: TABLE, hand_id: HAND, command_id: 'k1', proof: proofs[0]! };
const shuffleFrame = {
  type: 'blind_shuffle',
  table_id: TABLE,
  hand_id: HAND,
  command_id: 's1',
  output: shuffled.output,
  proof: shuffled.proof,
};
const sharesFrame = { type: 'blind_shares', table_id: TABLE, hand_id: HAND, shares };

function parse(frame: unknown) {
  return parseClientFrame(JSON.stringify(frame));
}

function refused(frame: unknown): string | undefined {
  const r = parse(frame);
  return r.ok ? undefined : r.code;
}

type Path = readonly (string | number)[];
type Change = { readonly set: unknown } | { readonly push: unknown } | 'drop';

/** A deep copy of `frame` with the value at `path` set, pushed to or dropped. */
function edited(frame: unknown, path: Path, change: Change): unknown {
  const copy: unknown = structuredClone(frame);
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (change === 'drop') delete parent[last];
  else if ('push' in change) (parent[last] as unknown[]).push(change.push);
  else parent[last] = change.set;
  return copy;
}

const HEX = 'ab'.repeat(32);

describe('engine-blind client frames', () => {
  it('are client frames the worker applies as table commands', () => {
    for (const t of ['blind_key', 'blind_shuffle', 'blind_shares'] as const) {
      expect(CLIENT_FRAME_TYPES).toContain(t);
      expect(TABLE_COMMAND_TYPES).toContain(t);
    }
  });

  it('accept real @felt/blind output as it is', () => {
    // Both kinds of opening are in the proof (λ = 8: all eight of one kind is 1 in 128).
    const kinds = new Set(shuffled.proof.openings.map((o) => ('seed' in o ? 'seed' : 'perm')));
    expect(kinds.size).toBe(2);
    for (const frame of [keyFrame, shuffleFrame, sharesFrame]) {
      const r = parse(frame);
      expect(r, frame.type).toEqual({ ok: true, frame: frame as ClientFrame });
    }
  });

  it('refuse a hex value that is not 64 lowercase hex digits', () => {
    const bad = [HEX.toUpperCase(), HEX.slice(2), HEX + 'ab', 'zz'.repeat(32), `0x${HEX.slice(2)}`, 42];
    for (const v of bad) {
      expect(refused(edited(keyFrame, ['proof', 'Y'], { set: v })), String(v)).toBe(ErrorCode.INVALID_FRAME);
      expect(refused(edited(shuffleFrame, ['output', 3, 'c2'], { set: v }))).toBe(ErrorCode.INVALID_FRAME);
      expect(refused(edited(sharesFrame, ['shares', 0, 'D'], { set: v }))).toBe(ErrorCode.INVALID_FRAME);
      const seed = shuffled.proof.openings.findIndex((o) => 'seed' in o);
      const perm = shuffled.proof.openings.findIndex((o) => 'perm' in o);
      expect(refused(edited(shuffleFrame, ['proof', 'openings', seed, 'seed'], { set: v }))).toBe(
        ErrorCode.INVALID_FRAME,
      );
      expect(refused(edited(shuffleFrame, ['proof', 'openings', perm, 'rand', 0], { set: v }))).toBe(
        ErrorCode.INVALID_FRAME,
      );
    }
  });

  it('refuse too many or too few entries', () => {
    const ct = shuffled.output[0]!;
    expect(refused(edited(shuffleFrame, ['output'], { push: ct }))).toBe(ErrorCode.INVALID_FRAME);
    expect(refused(edited(shuffleFrame, ['output'], { set: [ct] }))).toBe(ErrorCode.INVALID_FRAME);
    expect(refused(edited(shuffleFrame, ['proof', 'openings'], { set: [] }))).toBe(ErrorCode.INVALID_FRAME);
    expect(
      refused(edited(shuffleFrame, ['proof', 'openings'], { set: Array.from({ length: 257 }, () => ({ seed: HEX })) })),
    ).toBe(ErrorCode.INVALID_FRAME);
    expect(
      parse(edited(shuffleFrame, ['proof', 'openings'], { set: Array.from({ length: 256 }, () => ({ seed: HEX })) }))
        .ok,
    ).toBe(true);
    const perm = shuffled.proof.openings.findIndex((o) => 'perm' in o);
    expect(refused(edited(shuffleFrame, ['proof', 'openings', perm, 'perm'], { push: 0 }))).toBe(
      ErrorCode.INVALID_FRAME,
    );
    expect(refused(edited(shuffleFrame, ['proof', 'openings', perm, 'rand'], { push: HEX }))).toBe(
      ErrorCode.INVALID_FRAME,
    );
    expect(refused(edited(shuffleFrame, ['proof', 'openings', perm, 'perm', 0], { set: 52 }))).toBe(
      ErrorCode.INVALID_FRAME,
    );
    expect(refused(edited(shuffleFrame, ['proof', 'openings', perm, 'perm', 0], { set: 1.5 }))).toBe(
      ErrorCode.INVALID_FRAME,
    );
    const many = Array.from({ length: BLIND_MAX_CARDS + 1 }, (_, i) => ({ ...shares[0]!, position: i % 52 }));
    expect(refused(edited(sharesFrame, ['shares'], { set: many }))).toBe(ErrorCode.INVALID_FRAME);
    expect(refused(edited(sharesFrame, ['shares'], { set: [] }))).toBe(ErrorCode.INVALID_FRAME);
    expect(refused(edited(sharesFrame, ['shares', 0, 'position'], { set: 52 }))).toBe(ErrorCode.INVALID_FRAME);
    expect(refused(edited(sharesFrame, ['shares', 0, 'position'], { set: -1 }))).toBe(ErrorCode.INVALID_FRAME);
  });

  it('refuse a `deck` field and any other unknown key, at every level', () => {
    const deck = shuffled.output;
    expect(refused({ ...shuffleFrame, deck })).toBe(ErrorCode.INVALID_FRAME);
    expect(refused(edited(edited(shuffleFrame, ['deck'], { set: deck }), ['output'], 'drop'))).toBe(
      ErrorCode.INVALID_FRAME,
    );
    expect(refused(edited(shuffleFrame, ['proof', 'deck'], { set: deck }))).toBe(ErrorCode.INVALID_FRAME);
    expect(refused({ ...keyFrame, seat: 1 })).toBe(ErrorCode.INVALID_FRAME);
    expect(refused(edited(keyFrame, ['proof', 'x'], { set: HEX }))).toBe(ErrorCode.INVALID_FRAME);
    expect(refused(edited(shuffleFrame, ['output', 0, 'c3'], { set: HEX }))).toBe(ErrorCode.INVALID_FRAME);
    expect(refused(edited(shuffleFrame, ['proof', 'openings', 0, 'extra'], { set: 1 }))).toBe(ErrorCode.INVALID_FRAME);
    const perm = shuffled.proof.openings.findIndex((o) => 'perm' in o);
    expect(refused(edited(shuffleFrame, ['proof', 'openings', perm, 'seed'], { set: HEX }))).toBe(
      ErrorCode.INVALID_FRAME,
    );
    expect(refused(edited(sharesFrame, ['shares', 0, 'seat'], { set: 1 }))).toBe(ErrorCode.INVALID_FRAME);
    expect(refused({ ...sharesFrame, user_id: 'u1' })).toBe(ErrorCode.INVALID_FRAME);
  });

  it('need a hand_id and echo the command_id of a refused frame', () => {
    expect(refused(edited(keyFrame, ['hand_id'], 'drop'))).toBe(ErrorCode.INVALID_FRAME);
    expect(parse(edited(keyFrame, ['proof', 's'], 'drop'))).toMatchObject({
      ok: false,
      code: ErrorCode.INVALID_FRAME,
      command_id: 'k1',
      table_id: TABLE,
    });
  });

  it('have an error code for the table that does not deal engine-blind hands', () => {
    expect(ErrorCode.NOT_ENGINE_BLIND).toBe('not_engine_blind');
    expect(
      errorMessageSchema.parse({ type: 'error', code: 'not_engine_blind', message: 'no', table_id: TABLE }).code,
    ).toBe('not_engine_blind');
  });
});
