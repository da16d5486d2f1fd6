import { CodedError } from '@felt/engine';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export const StateHashErrorCode = { UNSUPPORTED_VALUE: 'state_hash_unsupported_value' } as const;
export type StateHashErrorCode = (typeof StateHashErrorCode)[keyof typeof StateHashErrorCode];

export class StateHashError extends CodedError<StateHashErrorCode> {
  override readonly name = 'StateHashError';
  constructor(
    readonly path: string,
    readonly valueType: string,
  ) {
    super(StateHashErrorCode.UNSUPPORTED_VALUE, `state_hash cannot encode ${valueType} at ${path}`);
  }
}

/** Top-level fields that change without the state changing, so the hash leaves them out. */
export const STATE_HASH_EXCLUDED_FIELDS = ['ts', 'table_seq', 'hand_seq', 'state_hash'] as const;

const NEEDS_ESCAPE = /[\u007f-\uffff]/g;

function escapeUnit(c: string): string {
  return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
}

/**
 * JSON.stringify already writes the quote, the backslash, the short escapes (b f n r t), other
 * control characters and lone surrogates exactly as Python does (lowercase u00XX); ensure_ascii
 * then needs DEL and everything past ASCII as a uXXXX escape of each UTF-16 unit, which gives
 * surrogate pairs for astral characters as Python does.
 */
function escapeString(s: string): string {
  return JSON.stringify(s).replace(NEEDS_ESCAPE, escapeUnit);
}

const SURROGATE = /[\ud800-\udfff]/;

/** Python sorts str keys by code point; JS's default sort compares UTF-16 units, which differs past U+FFFF. */
function compareCodePoints(a: string, b: string): number {
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

function encode(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return escapeString(value);
    case 'number':
      // Chips, seats and sequence numbers are integers. Floats print differently in Python and JS
      // (1e-07 vs 1e-7, 1.0 vs 1), so they are refused rather than hashed wrongly.
      if (!Number.isSafeInteger(value))
        throw new StateHashError(path, Number.isInteger(value) ? 'unsafe integer' : 'non-integer number');
      return String(value);
    case 'object': {
      if (Array.isArray(value)) {
        return '[' + value.map((v, i) => (v === undefined ? 'null' : encode(v, `${path}[${i}]`))).join(',') + ']';
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new StateHashError(path, 'non-plain object');
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj);
      // UTF-16 order is code point order unless a key holds a surrogate (past U+FFFF).
      if (keys.some((k) => SURROGATE.test(k))) keys.sort(compareCodePoints);
      else keys.sort();
      let out = '{';
      for (const k of keys) {
        const v = obj[k];
        if (v === undefined) continue;
        if (out.length > 1) out += ',';
        out += escapeString(k) + ':' + encode(v, path.length < 200 ? `${path}.${k}` : path);
      }
      return out + '}';
    }
    default:
      throw new StateHashError(path, typeof value);
  }
}

/**
 * JSON equal byte for byte to Python's
 * `json.dumps(obj, sort_keys=True, ensure_ascii=True, separators=(",", ":"))`.
 * Keys whose value is undefined are dropped, as JSON.stringify would drop them on the wire.
 */
export function canonicalJson(value: unknown): string {
  return encode(value, '$');
}

/**
 * The state_hash of a snapshot as sent to one recipient (ARCHITECTURE.md): drop ts, table_seq,
 * hand_seq and state_hash at the top level, canonicalize, SHA-256 the UTF-8 bytes.
 */
export function stateHash(snapshot: Readonly<Record<string, unknown>>): string {
  const rest: Record<string, unknown> = { ...snapshot };
  for (const field of STATE_HASH_EXCLUDED_FIELDS) delete rest[field];
  // canonicalJson's output is pure ASCII, so its UTF-8 bytes are its char codes.
  const text = canonicalJson(rest);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return 'sha256:' + bytesToHex(sha256(bytes));
}
