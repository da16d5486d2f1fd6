import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex, StateHashError, StateHashInput, stateHash, type Sha256Hex } from './state-hash.js';

const VECTOR = {
  type: 'table_state',
  table_id: 't1',
  table_seq: 42,
  hand_seq: 7,
  ts: 1764400000000,
  seats: [{ seat: 1, name: 'Zoë 中 🂡', stack: 995 }],
  pot: 10,
  board: ['As', 'Td'],
};

/** Python's canonical form and hash of `obj`, computed by python3 itself. */
function python(obj: unknown): { canonical: string; hash: string } {
  const script = [
    'import hashlib, json, sys',
    'obj = json.loads(sys.stdin.read())',
    'for k in ("ts", "table_seq", "hand_seq", "state_hash"):',
    '    obj.pop(k, None)',
    's = json.dumps(obj, sort_keys=True, ensure_ascii=True, separators=(",", ":"))',
    'sys.stdout.write(json.dumps({"canonical": s, "hash": "sha256:" + hashlib.sha256(s.encode("utf-8")).hexdigest()}))',
  ].join('\n');
  const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(obj), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { canonical: string; hash: string };
}

describe('stateHash', () => {
  it('matches the fixed test vector (a name with é, 中 and an astral character)', () => {
    const { ts: _ts, table_seq: _s, hand_seq: _h, ...rest } = VECTOR;
    expect(canonicalJson(rest)).toBe(
      '{"board":["As","Td"],"pot":10,"seats":[{"name":"Zo\\u00eb \\u4e2d \\ud83c\\udca1","seat":1,"stack":995}],"table_id":"t1","type":"table_state"}',
    );
    expect(stateHash(VECTOR)).toBe('sha256:193bdfdef0370a235f3da6851655270cb63dc974c88a6b0420028450bf6d61e3');
  });

  it('ignores ts, table_seq, hand_seq and state_hash, and nothing else', () => {
    const base = stateHash(VECTOR);
    expect(stateHash({ ...VECTOR, ts: 1, table_seq: 1, hand_seq: 1, state_hash: 'sha256:x' })).toBe(base);
    expect(stateHash({ ...VECTOR, pot: 11 })).not.toBe(base);
    // Only top-level ts is excluded; a nested one is state.
    expect(stateHash({ ...VECTOR, seats: [{ ...VECTOR.seats[0], ts: 1 }] })).not.toBe(base);
  });

  it('equals python3 json.dumps(sort_keys, ensure_ascii, compact) byte for byte', () => {
    const cases: unknown[] = [
      VECTOR,
      {
        type: 'table_state',
        table_id: 'b0c1a7c2-0f43-4b59-9d0e-3b8e5a2c1f00',
        table_seq: 9,
        seats: [
          { seat: 0, user_id: 'u1', name: 'José é', stack: 0, status: 'active' },
          { seat: 1, user_id: 'u2', name: '中文 玩家', stack: 1500, status: 'disconnected' },
          { seat: 2, user_id: 'u3', name: '😀🂡 emoji 🇫🇷', stack: 7, status: 'away' },
          { seat: 3, user_id: null, name: null, stack: 0, status: 'empty' },
        ],
        in_hand: true,
        folded: false,
        nested: { z: [1, -2, 0, 9007199254740991], a: { é: 1, e: 2, '\u{1F600}': 3, '\uffff': 4 } },
        quotes: 'a"b\\c/d\n\r\t\b\f\u0000\u001f\u007f~',
        empty: { arr: [], obj: {} },
      },
    ];
    for (const obj of cases) {
      const py = python(obj);
      const { ts: _a, table_seq: _b, hand_seq: _c, state_hash: _d, ...rest } = obj as Record<string, unknown>;
      expect(canonicalJson(rest)).toBe(py.canonical);
      expect(stateHash(obj as Record<string, unknown>)).toBe(py.hash);
    }
  });

  it('equals python3 on random strings and keys full of escapes, non-ASCII, astral and lone surrogates', () => {
    const alphabet = [
      'a',
      'Z',
      '"',
      '\\',
      '/',
      '\n',
      '\u0001',
      '\u001f',
      ' ',
      '~',
      '\u007f',
      '\u0080',
      'é',
      '中',
      '\uffff',
      '\u{1F600}',
      '\ud800',
      '\udfff',
      '\u2028',
    ];
    let x = 7;
    const next = (n: number): number => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      return x % n;
    };
    const str = (): string => Array.from({ length: next(8) }, () => alphabet[next(alphabet.length)]!).join('');
    const obj: Record<string, unknown> = {};
    for (let i = 0; i < 150; i++) obj[str() + String(i)] = { [str()]: str(), n: i, list: [str(), null, true] };
    const script = [
      'import json, sys',
      'obj = json.loads(sys.stdin.read())',
      'sys.stdout.write(json.dumps(obj, sort_keys=True, ensure_ascii=True, separators=(",", ":")))',
    ].join('\n');
    // JSON.stringify writes lone surrogates as escapes, which Python reads back as the same units.
    const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(obj), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(canonicalJson(obj)).toBe(r.stdout);
  });

  it('refuses values Python and JS would print differently', () => {
    expect(() => stateHash({ pot: 0.5 })).toThrow(StateHashError);
    expect(() => stateHash({ pot: 2 ** 60 })).toThrow(/unsafe integer/);
    expect(() => stateHash({ at: new Date(0) })).toThrow(/non-plain object/);
  });

  it('says where a value it refuses is', () => {
    expect(() => stateHash({ seats: [{ stack: 1.5 }] })).toThrow(/at \$\.seats\[0\]\.stack/);
    expect(() => canonicalJson({ a: { b: () => 1 } })).toThrow(/function at \$\.a\.b/);
  });
});

describe('StateHashInput and a native digest', () => {
  const native: Sha256Hex = (ascii) => createHash('sha256').update(ascii, 'latin1').digest('hex');

  it('a native SHA-256 gives the same hash as the JavaScript one', () => {
    expect(stateHash(VECTOR, native)).toBe('sha256:193bdfdef0370a235f3da6851655270cb63dc974c88a6b0420028450bf6d61e3');
    for (const text of ['', '{}', 'x'.repeat(1000), '{"a":"\\u00e9"}']) expect(native(text)).toBe(sha256Hex(text));
  });

  it('a field added later hashes as if it had been there: what a snapshot’s prev_table_seq needs', () => {
    const input = StateHashInput.of(VECTOR);
    expect(input.hash()).toBe(stateHash(VECTOR));
    expect(input.with({ prev_table_seq: 41 }).hash(native)).toBe(stateHash({ ...VECTOR, prev_table_seq: 41 }));
    // A field given again replaces the first, undefined removes it, and excluded fields stay out.
    expect(input.with({ pot: 11, board: undefined, ts: 5, table_seq: 6 }).text()).toBe(
      canonicalJson({ ...VECTOR, pot: 11, board: undefined, ts: undefined, table_seq: undefined, hand_seq: undefined }),
    );
    // Values encoded by the caller, an array of them joined as canonical JSON joins them.
    const seats = `[${VECTOR.seats.map((seat) => canonicalJson(seat)).join(',')},${canonicalJson({ seat: 2 })}]`;
    expect(input.withCanonical({ seats, table_seq: '1' }).hash(native)).toBe(
      stateHash({ ...VECTOR, seats: [...VECTOR.seats, { seat: 2 }] }),
    );
    // The input is not changed by `with`.
    expect(input.hash()).toBe(stateHash(VECTOR));
  });

  it('snapshotText is the whole snapshot as JSON: the hashed text and the fields the hash leaves out', () => {
    const input = StateHashInput.of(VECTOR);
    const sent = { ...VECTOR, state_hash: input.hash(native) };
    const text = input.snapshotText(sent);
    expect(JSON.parse(text)).toEqual(sent);
    // The hashed fields are the canonical text (non-ASCII escaped); the others follow it.
    expect(text.startsWith(input.text().slice(0, -1) + ',')).toBe(true);
    // An excluded field that is undefined is left out, as JSON.stringify leaves it out.
    expect(JSON.parse(input.snapshotText({ ts: 1, hand_seq: undefined }))).toEqual({
      ...VECTOR,
      ts: 1,
      table_seq: undefined,
      hand_seq: undefined,
    });
    // No hashed field at all.
    expect(StateHashInput.of({}).snapshotText({ table_seq: 3 })).toBe('{"table_seq":3}');
    expect(StateHashInput.of({}).snapshotText({})).toBe('{}');
    // What the hash leaves out need not be canonical: a fractional ts is written, not refused.
    expect(JSON.parse(StateHashInput.of({}).snapshotText({ ts: 1.5 }))).toEqual({ ts: 1.5 });
  });
});
