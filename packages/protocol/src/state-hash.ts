import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export const StateHashErrorCode = { UNSUPPORTED_VALUE: 'state_hash_unsupported_value' } as const;
export type StateHashErrorCode = (typeof StateHashErrorCode)[keyof typeof StateHashErrorCode];

export class StateHashError extends Error {
  readonly code = StateHashErrorCode.UNSUPPORTED_VALUE;
  constructor(
    readonly path: string,
    readonly valueType: string,
  ) {
    super(`state_hash cannot encode ${valueType} at ${path}`);
    this.name = 'StateHashError';
  }
}

/** Top-level fields that change without the state changing, so the hash leaves them out. */
export const STATE_HASH_EXCLUDED_FIELDS = ['ts', 'table_seq', 'hand_seq', 'state_hash'] as const;

function escapeString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    // ensure_ascii: everything outside printable ASCII (space to ~) as \uXXXX of the UTF-16 unit,
    // which gives surrogate pairs for astral characters exactly as Python does.
    else if (c < 0x20 || c > 0x7e) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += s[i];
  }
  return out + '"';
}

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
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      entries.sort(([a], [b]) => compareCodePoints(a, b));
      return '{' + entries.map(([k, v]) => `${escapeString(k)}:${encode(v, `${path}.${k}`)}`).join(',') + '}';
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
