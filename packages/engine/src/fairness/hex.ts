import { FairnessError, FairnessErrorCode } from './errors.js';

const HEX_DIGITS = '0123456789abcdef';

/** Lowercase hex, the form the reveal record publishes seeds and hashes in. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += HEX_DIGITS[b >> 4]! + HEX_DIGITS[b & 15]!;
  return out;
}

function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 97 && code <= 102) return code - 87; // a-f
  if (code >= 65 && code <= 70) return code - 55; // A-F
  return -1;
}

/** Accepts either case; refuses odd lengths and any non-hex character rather than guessing. */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0) {
    throw new FairnessError(FairnessErrorCode.INVALID_HEX, 'hex string has an odd length', { length: hex.length });
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(hex.charCodeAt(2 * i));
    const lo = nibble(hex.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) {
      throw new FairnessError(FairnessErrorCode.INVALID_HEX, 'hex string has a non-hex character', { offset: 2 * i });
    }
    out[i] = (hi << 4) | lo;
  }
  return out;
}
