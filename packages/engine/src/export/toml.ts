import { ExportError, ExportErrorCode } from '../errors.js';

/**
 * The TOML subset PHH files use: `key = value` lines with integers, floats, booleans, basic strings
 * and (possibly multi-line) arrays of those; `#` comments. Enough to read back what we write and the
 * published PHH examples; not a general TOML parser (no tables, dates or literal strings).
 */
export type TomlValue = string | number | boolean | TomlValue[];

export function tomlString(s: string): string {
  return JSON.stringify(s)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function tomlValue(v: TomlValue): string {
  if (typeof v === 'string') return tomlString(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new ExportError(ExportErrorCode.UNSUPPORTED, 'non-finite number in TOML');
    return String(v);
  }
  return `[${v.map(tomlValue).join(', ')}]`;
}

class Cursor {
  i = 0;
  constructor(readonly s: string) {}
  peek(): string {
    return this.s[this.i] ?? '';
  }
  fail(message: string): never {
    const line = this.s.slice(0, this.i).split('\n').length;
    throw new ExportError(ExportErrorCode.PARSE, `TOML line ${line}: ${message}`, { line });
  }
  /** Skips spaces, tabs, and (when `newlines`) line breaks and comments. */
  skip(newlines: boolean): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else if (newlines && c === '\n') this.i++;
      else if (c === '#') {
        while (this.i < this.s.length && this.peek() !== '\n') this.i++;
      } else return;
    }
  }
}

function parseValue(cur: Cursor): TomlValue {
  cur.skip(false);
  const c = cur.peek();
  if (c === '"') {
    let j = cur.i + 1;
    while (j < cur.s.length && cur.s[j] !== '"') {
      if (cur.s[j] === '\\') j++;
      if (cur.s[j] === '\n') cur.fail('unterminated string');
      j++;
    }
    if (j >= cur.s.length) cur.fail('unterminated string');
    const raw = cur.s.slice(cur.i, j + 1);
    cur.i = j + 1;
    try {
      return JSON.parse(raw) as string;
    } catch {
      return cur.fail(`bad string ${raw}`);
    }
  }
  if (c === '[') {
    cur.i++;
    const out: TomlValue[] = [];
    for (;;) {
      cur.skip(true);
      if (cur.peek() === ']') {
        cur.i++;
        return out;
      }
      out.push(parseValue(cur));
      cur.skip(true);
      if (cur.peek() === ',') cur.i++;
      else if (cur.peek() !== ']') cur.fail('expected , or ]');
    }
  }
  const time = /^\d{2}:\d{2}:\d{2}(?:\.\d+)?/.exec(cur.s.slice(cur.i));
  if (time !== null) {
    // A TOML local time; kept as its text.
    cur.i += time[0].length;
    return time[0];
  }
  const m = /^(true|false|[+-]?(?:inf|nan)|[+-]?[0-9_]+(?:\.[0-9_]+)?(?:[eE][+-]?[0-9]+)?)/.exec(cur.s.slice(cur.i));
  if (m === null) return cur.fail(`unexpected ${JSON.stringify(c)}`);
  cur.i += m[0].length;
  if (m[0] === 'true') return true;
  if (m[0] === 'false') return false;
  if (/inf/.test(m[0])) return m[0].startsWith('-') ? -Infinity : Infinity;
  if (/nan/.test(m[0])) return NaN;
  return Number(m[0].replace(/_/g, ''));
}

export function parseToml(text: string): Record<string, TomlValue> {
  const cur = new Cursor(text);
  const out: Record<string, TomlValue> = {};
  for (;;) {
    cur.skip(true);
    if (cur.i >= text.length) return out;
    const m = /^([A-Za-z0-9_-]+)[ \t]*=/.exec(text.slice(cur.i));
    if (m === null) return cur.fail('expected key = value');
    cur.i += m[0].length;
    const key = m[1]!;
    if (Object.prototype.hasOwnProperty.call(out, key)) cur.fail(`duplicate key ${key}`);
    out[key] = parseValue(cur);
    cur.skip(false);
    if (cur.i < text.length && cur.peek() !== '\n') cur.fail('expected end of line');
  }
}
