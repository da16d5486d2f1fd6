import fc from 'fast-check';
import { ACTION_TYPES } from '@felt/protocol';

/** What the generated frames may refer to. */
export interface FuzzContext {
  /** Tables that exist; the first is the one the fuzzing sockets watch. */
  readonly tableIds: readonly string[];
  /** The hand in progress at the first table, when there is one. */
  readonly handId: string | null;
  /** The gateway's GATEWAY_MAX_PAYLOAD. */
  readonly maxPayload: number;
  /** The gateway's GATEWAY_MAX_BLIND_PAYLOAD (blind_shuffle frames only). */
  readonly maxBlindPayload: number;
}

/** One generated WebSocket frame: exact bytes, sent as a text or a binary frame. */
export interface FuzzFrame {
  /** The generator that made it (for the summary). */
  readonly label: string;
  readonly bytes: Buffer;
  readonly binary: boolean;
}

const RANKS = '23456789TJQKA';
const SUITS = 'cdhs';
const CARDS = [...RANKS].flatMap((r) => [...SUITS].map((s) => `${r}${s}`));

/** Keys a client might try to smuggle identity or state through, and prototype tricks. */
const UNKNOWN_KEYS = [
  'user_id',
  'userId',
  'seat',
  'name',
  'admin',
  'table_seq',
  'stack',
  'role',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '',
  ' type',
  'TYPE',
];

/** Number tokens JSON.stringify never writes: overflow to ±Infinity, beyond 2^53, underflow, odd forms. */
const RAW_NUMBERS = [
  '1e309',
  '-1e309',
  '1E400',
  '123456789012345678901234567890',
  '9007199254740993',
  '-9007199254740993',
  '-0',
  '0.0',
  '1.5',
  '-1',
  '0.1e-400',
  '1e-7',
  '4294967296',
  '18446744073709551616',
  '00',
  '01',
  '+1',
  '.5',
  '0x10',
  'NaN',
  'Infinity',
];

/** Bytes that make a text frame invalid UTF-8. */
const INVALID_UTF8 = [[0xff], [0xfe], [0xc0, 0x80], [0x80], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]];

const text = (label: string, s: string): FuzzFrame => ({ label, bytes: Buffer.from(s, 'utf8'), binary: false });

function tableId(ctx: FuzzContext): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 16, arbitrary: fc.constant(ctx.tableIds[0]!) },
    { weight: 2, arbitrary: fc.constantFrom(...ctx.tableIds) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/) },
  );
}

function handId(ctx: FuzzContext): fc.Arbitrary<string> {
  return ctx.handId ? fc.oneof({ weight: 3, arbitrary: fc.constant(ctx.handId) }, fc.uuid()) : fc.uuid();
}

const commandId = fc.oneof(fc.string({ minLength: 1, maxLength: 64 }), fc.uuid());
const turnToken = fc.stringMatching(/^[A-Za-z0-9_-]{16,64}$/);
const chips = fc.oneof(fc.nat({ max: 10_000 }), fc.constant(Number.MAX_SAFE_INTEGER));
const seedHex = fc.stringMatching(/^[0-9a-f]{64}$/);
const blindPosition = fc.nat({ max: 51 });
const blindKeyProof = fc.record({ Y: seedHex, c: seedHex, s: seedHex });
const blindOutput = fc.array(fc.record({ c1: seedHex, c2: seedHex }), { minLength: 2, maxLength: 6 });
const blindShuffleProof = fc.record({
  openings: fc.array(
    fc.oneof(
      fc.record({ seed: seedHex }),
      fc.record({ perm: fc.array(blindPosition, { maxLength: 6 }), rand: fc.array(seedHex, { maxLength: 6 }) }),
    ),
    { minLength: 1, maxLength: 4 },
  ),
});
const blindShares = fc.array(fc.record({ position: blindPosition, D: seedHex, c: seedHex, s: seedHex }), {
  minLength: 1,
  maxLength: 4,
});

/** A frame the protocol's schema accepts, of every client type. */
export function validFrame(ctx: FuzzContext): fc.Arbitrary<Record<string, unknown>> {
  const t = tableId(ctx);
  const h = handId(ctx);
  const table = <M extends Record<string, fc.Arbitrary<unknown>>>(type: string, extra: M, required: string[] = []) =>
    fc.record(
      { type: fc.constant(type), table_id: t, command_id: commandId, ...extra },
      { requiredKeys: ['type', 'table_id', ...required] as never[] },
    );
  return fc.oneof(
    { weight: 1, arbitrary: table('join_table', { spectate: fc.boolean() }) },
    { weight: 1, arbitrary: table('leave_table', {}) },
    { weight: 2, arbitrary: table('sit_in', { post: fc.boolean() }) },
    { weight: 2, arbitrary: table('sit_out', {}) },
    { weight: 2, arbitrary: table('leave', {}) },
    { weight: 2, arbitrary: table('start_hand', {}) },
    {
      weight: 6,
      arbitrary: table(
        'action',
        {
          hand_id: h,
          turn_token: turnToken,
          action: fc.constantFrom(...ACTION_TYPES),
          amount: chips,
          cards: fc.array(fc.constantFrom(...CARDS), { maxLength: 7 }),
        },
        ['hand_id', 'turn_token', 'command_id', 'action'],
      ),
    },
    { weight: 2, arbitrary: table('client_seed', { hand_id: h, seed: seedHex }, ['hand_id', 'seed']) },
    { weight: 2, arbitrary: table('show_cards', { hand_id: h }, ['hand_id']) },
    { weight: 2, arbitrary: table('resync_request', { from_table_seq: fc.nat() }) },
    // Engine-blind dealing's frames: carried to the worker as bytes and back, refused there for now.
    { weight: 1, arbitrary: table('blind_key', { hand_id: h, proof: blindKeyProof }, ['hand_id', 'proof']) },
    {
      weight: 1,
      arbitrary: table('blind_shuffle', { hand_id: h, output: blindOutput, proof: blindShuffleProof }, [
        'hand_id',
        'output',
        'proof',
      ]),
    },
    { weight: 1, arbitrary: table('blind_shares', { hand_id: h, shares: blindShares }, ['hand_id', 'shares']) },
    {
      weight: 3,
      arbitrary: fc.record(
        { type: fc.constant('ping'), nonce: fc.string({ maxLength: 64 }) },
        { requiredKeys: ['type'] },
      ),
    },
  );
}

/** Values of every JSON type, and a few that only look like numbers or ids. */
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -1, 2 ** 53, 1e21, -1e21, 0.5, 2 ** 64),
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '0', 'null', 'true', '{}', '[]', 'As', '10', '-1', 'join_table', '\u0000', '\u202e'),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.object({ maxDepth: 2 }),
  fc.jsonValue({ maxDepth: 3 }),
);

type Mutation = (frame: Record<string, unknown>, pick: number, value: unknown) => Record<string, unknown>;

const keyAt = (frame: Record<string, unknown>, pick: number): string => {
  const keys = Object.keys(frame);
  return keys[pick % keys.length] ?? 'type';
};

const MUTATIONS: Record<string, Mutation> = {
  drop: (f, pick) => {
    const copy = { ...f };
    delete copy[keyAt(f, pick)];
    return copy;
  },
  unknown: (f, pick, value) => {
    const copy = { ...f };
    // defineProperty so that "__proto__" becomes an own key that JSON.stringify writes.
    Object.defineProperty(copy, UNKNOWN_KEYS[pick % UNKNOWN_KEYS.length]!, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return copy;
  },
  retype: (f, pick, value) => ({ ...f, [keyAt(f, pick)]: value }),
  type: (f, pick, value) => {
    const type = typeof f.type === 'string' ? f.type : 'ping';
    const variants: unknown[] = [
      type.toUpperCase(),
      `${type} `,
      ` ${type}`,
      `${type}\u0000`,
      type.replace('a', '\u0430'),
      type.slice(0, -1),
      `${type}s`,
      value,
    ];
    return { ...f, type: variants[pick % variants.length] };
  },
};

/** A valid frame with one thing wrong, serialized. */
function mutatedFrame(ctx: FuzzContext): fc.Arbitrary<FuzzFrame> {
  return fc
    .tuple(validFrame(ctx), fc.constantFrom(...Object.keys(MUTATIONS)), fc.nat(), weirdValue)
    .map(([frame, name, pick, value]) => text(`mutated:${name}`, JSON.stringify(MUTATIONS[name]!(frame, pick, value))));
}

/** A valid frame with one value replaced by raw text that JSON.stringify would never write. */
function rawValueFrame(ctx: FuzzContext, maxPayload: number): fc.Arbitrary<FuzzFrame> {
  const raw = fc.oneof(
    fc.constantFrom(...RAW_NUMBERS).map((r) => ({ label: 'huge-number', raw: r })),
    fc.integer({ min: 1, max: Math.floor((maxPayload - 200) / 2) }).map((d) => ({
      label: 'deep-array',
      raw: '['.repeat(d) + ']'.repeat(d),
    })),
    fc.integer({ min: 1, max: Math.floor((maxPayload - 200) / 6) }).map((d) => ({
      label: 'deep-object',
      raw: '{"a":'.repeat(d) + '1' + '}'.repeat(d),
    })),
    fc
      .array(fc.constantFrom('\\ud800', '\\udfff', '\\ud83d\\ude00', '\\u0000', '\\uffff', 'x'), {
        minLength: 1,
        maxLength: 8,
      })
      .map((parts) => ({ label: 'escapes', raw: `"${parts.join('')}"` })),
    fc.integer({ min: 100, max: maxPayload - 200 }).map((n) => ({ label: 'long-string', raw: `"${'y'.repeat(n)}"` })),
  );
  return fc.tuple(validFrame(ctx), fc.nat(), raw).map(([frame, pick, { label, raw: token }]) => {
    const marker = `@@raw-${pick}@@`;
    const json = JSON.stringify({ ...frame, [keyAt(frame, pick)]: marker });
    return text(label, json.replace(JSON.stringify(marker), token));
  });
}

/** Text that is not a frame: broken JSON, other JSON values, garbage, duplicate keys, a BOM. */
function malformedText(ctx: FuzzContext): fc.Arbitrary<FuzzFrame> {
  const json = validFrame(ctx).map((f) => JSON.stringify(f));
  return fc.oneof(
    fc.tuple(json, fc.nat()).map(([s, cut]) => text('truncated', s.slice(0, cut % s.length))),
    fc.tuple(json, fc.string({ minLength: 1, maxLength: 8 })).map(([s, tail]) => text('trailing', s + tail)),
    json.map((s) => text('bom', `\uFEFF${s}`)),
    json.map((s) => text('wrapped', `[${s}]`)),
    json.map((s) => text('stringified', JSON.stringify(s))),
    fc
      .tuple(json, fc.constantFrom('ping', 'join_table', 'action', 'nope'))
      .map(([s, t]) => text('duplicate-key', `{"type":"${t}",${s.slice(1)}`)),
    json.map((s) => text('proto', `{"__proto__":{"admin":true},${s.slice(1)}`)),
    fc.jsonValue({ maxDepth: 4 }).map((v) => text('json-value', JSON.stringify(v) ?? 'null')),
    fc.string({ maxLength: 200 }).map((s) => text('garbage', s)),
    fc.string({ unit: 'binary', maxLength: 200 }).map((s) => text('garbage-unicode', s)),
  );
}

function binaryFrame(ctx: FuzzContext): fc.Arbitrary<FuzzFrame> {
  return fc.oneof(
    fc.uint8Array({ maxLength: 512 }).map((b) => ({ label: 'binary', bytes: Buffer.from(b), binary: true })),
    validFrame(ctx).map((f) => ({ label: 'binary-json', bytes: Buffer.from(JSON.stringify(f)), binary: true })),
  );
}

/** A text frame whose bytes are not UTF-8: uWS drops the connection on it. */
function invalidUtf8(ctx: FuzzContext): fc.Arbitrary<FuzzFrame> {
  return fc.tuple(validFrame(ctx), fc.nat(), fc.constantFrom(...INVALID_UTF8)).map(([f, at, bad]) => {
    const good = Buffer.from(JSON.stringify(f), 'utf8');
    const i = at % (good.length + 1);
    return {
      label: 'invalid-utf8',
      bytes: Buffer.concat([good.subarray(0, i), Buffer.from(bad), good.subarray(i)]),
      binary: false,
    };
  });
}

/**
 * Frames over the payload limit: up to uWS's read limit (read, then closed with 1009: none is a
 * blind_shuffle), and past that.
 */
function oversized(ctx: FuzzContext): fc.Arbitrary<FuzzFrame> {
  const readLimit = uwsReadLimit(ctx);
  const of = (label: string, min: number, max: number) =>
    fc
      .tuple(fc.integer({ min, max }), fc.boolean())
      .map(([n, binary]) => ({ label, bytes: Buffer.alloc(n, binary ? 0xab : 0x7b), binary }));
  return fc.oneof(
    of('oversized', ctx.maxPayload + 1, readLimit),
    of('oversized-unread', readLimit + 1, readLimit + ctx.maxPayload),
  );
}

/** The largest frame uWS reads (services/gateway/src/gateway.ts, maxPayloadLength). */
export function uwsReadLimit(limits: { readonly maxPayload: number; readonly maxBlindPayload: number }): number {
  return Math.max(2 * limits.maxPayload, limits.maxBlindPayload);
}

/**
 * The fuzz mix. Weights per thousand: most frames are valid ones with something wrong, a seventh are
 * valid (they still reach the worker, from a socket that may not send them), and a few in a
 * thousand end the socket (invalid UTF-8, oversized), so that reconnecting does not dominate.
 */
export function fuzzFrame(ctx: FuzzContext): fc.Arbitrary<FuzzFrame> {
  return fc.oneof(
    { weight: 150, arbitrary: validFrame(ctx).map((f) => text('valid', JSON.stringify(f))) },
    { weight: 380, arbitrary: mutatedFrame(ctx) },
    { weight: 140, arbitrary: rawValueFrame(ctx, ctx.maxPayload) },
    { weight: 200, arbitrary: malformedText(ctx) },
    { weight: 100, arbitrary: binaryFrame(ctx) },
    {
      weight: 24,
      arbitrary: fc.constantFrom<FuzzFrame>(
        { label: 'empty', bytes: Buffer.alloc(0), binary: false },
        { label: 'empty-binary', bytes: Buffer.alloc(0), binary: true },
      ),
    },
    { weight: 3, arbitrary: invalidUtf8(ctx) },
    { weight: 3, arbitrary: oversized(ctx) },
  );
}
