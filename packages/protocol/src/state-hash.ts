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

/** Printable ASCII but the quote and the backslash: such a string is its own JSON, between quotes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function escapeUnit(c: string): string {
  return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
}

/**
 * JSON.stringify already writes the quote, the backslash, the short escapes (b f n r t), other
 * control characters and lone surrogates exactly as Python does (lowercase u00XX); ensure_ascii
 * then needs DEL and everything past ASCII as a uXXXX escape of each UTF-16 unit, which gives
 * surrogate pairs for astral characters as Python does. Most strings (ids, cards, names) need none
 * of it.
 */
function escapeString(s: string): string {
  if (PLAIN.test(s)) return '"' + s + '"';
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

/** Sorts keys in place as Python does. */
function sortKeys(keys: string[]): string[] {
  // UTF-16 order is code point order unless a key holds a surrogate (past U+FFFF).
  for (const k of keys) if (SURROGATE.test(k)) return keys.sort(compareCodePoints);
  return keys.sort();
}

/**
 * Thrown by the fast encoder at a value it cannot encode; the slow one then says where (`encodeAt`).
 * One object, made once: it never leaves this module.
 */
const UNSUPPORTED = new Error('state_hash: a value canonical JSON cannot encode');

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The canonical encoder: no path is kept (it is the hot path of every snapshot a worker sends). */
function encode(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return escapeString(value);
    case 'number':
      if (!Number.isSafeInteger(value)) throw UNSUPPORTED;
      return String(value);
    case 'object': {
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          const v: unknown = value[i];
          out += v === undefined ? 'null' : encode(v);
        }
        return out + ']';
      }
      if (!isPlainObject(value)) throw UNSUPPORTED;
      const obj = value as Record<string, unknown>;
      let out = '{';
      for (const k of sortKeys(Object.keys(obj))) {
        const v = obj[k];
        if (v === undefined) continue;
        if (out.length > 1) out += ',';
        out += escapeString(k) + ':' + encode(v);
      }
      return out + '}';
    }
    default:
      throw UNSUPPORTED;
  }
}

/** The same walk as `encode`, slowly, keeping the path: it throws the StateHashError `encode` could not. */
function encodeAt(value: unknown, path: string): string {
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
        return '[' + value.map((v, i) => (v === undefined ? 'null' : encodeAt(v, `${path}[${i}]`))).join(',') + ']';
      }
      if (!isPlainObject(value)) throw new StateHashError(path, 'non-plain object');
      const obj = value as Record<string, unknown>;
      let out = '{';
      for (const k of sortKeys(Object.keys(obj))) {
        const v = obj[k];
        if (v === undefined) continue;
        if (out.length > 1) out += ',';
        out += escapeString(k) + ':' + encodeAt(v, path.length < 200 ? `${path}.${k}` : path);
      }
      return out + '}';
    }
    default:
      throw new StateHashError(path, typeof value);
  }
}

function encodeChecked(value: unknown, path: string): string {
  try {
    return encode(value);
  } catch (err) {
    if (err !== UNSUPPORTED) throw err;
    return encodeAt(value, path);
  }
}

/**
 * JSON equal byte for byte to Python's
 * `json.dumps(obj, sort_keys=True, ensure_ascii=True, separators=(",", ":"))`.
 * Keys whose value is undefined are dropped, as JSON.stringify would drop them on the wire.
 */
export function canonicalJson(value: unknown): string {
  return encodeChecked(value, '$');
}

/**
 * SHA-256 of an ASCII string (canonicalJson's output is pure ASCII, so its UTF-8 bytes are its
 * char codes), as lowercase hex. The default is JavaScript, for the browser; a server passes a
 * native one (node:crypto), which gives the same hex.
 */
export type Sha256Hex = (ascii: string) => string;

/** SHA-256 in JavaScript (`@noble/hashes`): runs anywhere. */
export const sha256Hex: Sha256Hex = (ascii) => {
  const bytes = new Uint8Array(ascii.length);
  for (let i = 0; i < ascii.length; i++) bytes[i] = ascii.charCodeAt(i);
  return bytesToHex(sha256(bytes));
};

const EXCLUDED: ReadonlySet<string> = new Set(STATE_HASH_EXCLUDED_FIELDS);

/**
 * What a snapshot's state_hash covers: its top-level fields but the excluded ones, each already in
 * canonical JSON, so that the same body can be hashed with a field more (a snapshot's
 * prev_table_seq) without encoding the rest again. `hash()` equals `stateHash` of the same fields.
 */
export class StateHashInput {
  /** `text()`, once built: an input never changes. */
  private encoded: string | undefined;

  private constructor(private readonly fields: ReadonlyMap<string, string>) {}

  static of(snapshot: Readonly<Record<string, unknown>>): StateHashInput {
    if (!isPlainObject(snapshot)) throw new StateHashError('$', 'non-plain object');
    return new StateHashInput(StateHashInput.encodeFields(new Map(), snapshot));
  }

  private static encodeFields(
    into: Map<string, string>,
    snapshot: Readonly<Record<string, unknown>>,
  ): Map<string, string> {
    for (const k of Object.keys(snapshot)) {
      if (EXCLUDED.has(k)) continue;
      const v = snapshot[k];
      if (v === undefined) into.delete(k);
      else into.set(k, encodeChecked(v, `$.${k}`));
    }
    return into;
  }

  /** These fields and `more` (a field of `more` replaces the same one here). */
  with(more: Readonly<Record<string, unknown>>): StateHashInput {
    return new StateHashInput(StateHashInput.encodeFields(new Map(this.fields), more));
  }

  /**
   * These fields and `more`, whose values are canonical JSON already (`canonicalJson`'s output, or
   * an array of such texts joined as `[a,b]`): for a caller that encodes a part shared by several
   * snapshots once.
   */
  withCanonical(more: Readonly<Record<string, string>>): StateHashInput {
    const fields = new Map(this.fields);
    for (const k of Object.keys(more)) if (!EXCLUDED.has(k)) fields.set(k, more[k]!);
    return new StateHashInput(fields);
  }

  /** The canonical JSON that is hashed. */
  text(): string {
    if (this.encoded !== undefined) return this.encoded;
    let out = '{';
    for (const k of sortKeys([...this.fields.keys()])) {
      if (out.length > 1) out += ',';
      out += escapeString(k) + ':' + this.fields.get(k)!;
    }
    return (this.encoded = out + '}');
  }

  /**
   * The JSON of the whole snapshot whose hashed fields these are, given the fields the hash leaves
   * out (`excluded`: ts, table_seq, hand_seq, state_hash; an undefined one is left out as
   * JSON.stringify would): parsed, it equals the snapshot. For a sender that would otherwise encode
   * every snapshot a second time.
   */
  snapshotText(excluded: Readonly<Record<string, unknown>>): string {
    const text = this.text();
    let out = text.slice(0, -1);
    for (const k of STATE_HASH_EXCLUDED_FIELDS) {
      const v = excluded[k];
      if (v === undefined) continue;
      if (out.length > 1) out += ',';
      // Not hashed, so any JSON will do: as JSON.stringify writes it (a clock's fraction included).
      out += escapeString(k) + ':' + JSON.stringify(v);
    }
    return out + '}';
  }

  /** `sha256:<hex>` of `text()`, hashed with `digest`. */
  hash(digest: Sha256Hex = sha256Hex): string {
    return 'sha256:' + digest(this.text());
  }
}

/**
 * The state_hash of a snapshot as sent to one recipient (docs/protocol.md, "State hash"): drop ts,
 * table_seq, hand_seq and state_hash at the top level, canonicalize, SHA-256 the UTF-8 bytes.
 * `digest`: a native SHA-256 where there is one (the result is the same).
 */
export function stateHash(snapshot: Readonly<Record<string, unknown>>, digest: Sha256Hex = sha256Hex): string {
  return StateHashInput.of(snapshot).hash(digest);
}
