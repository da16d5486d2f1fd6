// Randomness from Web Crypto only (browsers and Node >= 19 expose globalThis.crypto), so the SDK core
// carries no Node import.

/** Fills a buffer with CSPRNG bytes; injectable so tests can make ids and seeds reproducible. */
export type RandomBytes = (length: number) => Uint8Array;

export const webCryptoRandomBytes: RandomBytes = (length) => {
  const bytes = new Uint8Array(length);
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
};

/** A uniform float in [0, 1) from the CSPRNG (53 random bits), for backoff jitter. */
export function webCryptoRandom(): number {
  const b = webCryptoRandomBytes(7);
  // 53 bits: 5 high bits of b[0], then 48 bits from b[1..6].
  let x = (b[0]! & 0x1f) * 2 ** 48;
  for (let i = 1; i < 7; i++) x += b[i]! * 2 ** (8 * (6 - i));
  return x / 2 ** 53;
}

const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += HEX[b]!;
  return out;
}

/** A command id: 128 random bits as 32 hex chars, well inside the protocol's 64-char limit. */
export function newCommandId(randomBytes: RandomBytes = webCryptoRandomBytes): string {
  return bytesToHex(randomBytes(16));
}

/**
 * A fresh 32-byte client seed as 64 hex chars (docs/fairness.md, derivation step 4). Drawn only after the hand's
 * seed_commit arrives, never cached, so the server cannot grind its deck against a known seed.
 */
export function newClientSeed(randomBytes: RandomBytes = webCryptoRandomBytes): string {
  return bytesToHex(randomBytes(32));
}
