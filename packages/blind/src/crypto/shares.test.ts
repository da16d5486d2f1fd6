import { sha512 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardIndex, cardPoint, initialDeck, type Ciphertext } from './cards.js';
import { Fn, IDENTITY_HEX, Point, parseScalar, scalarHex, type Rng } from './group.js';
import { generateKey, jointKey, type PlayerKey } from './keys.js';
import { decryptionShare, openCard, ownShare, verifyShare, type DecryptionShare } from './shares.js';
import { reencrypt } from './shuffle.js';

function seededRng(label: string): Rng {
  let counter = 0;
  return (n) => {
    const out = new Uint8Array(n);
    for (let o = 0; o < n; o += 64)
      out.set(sha512(utf8ToBytes(`${label}/${counter++}`)).subarray(0, Math.min(64, n - o)), o);
    return out;
  };
}

const CARDS = ['As', 'Kd', 'Qh', 'Jc', 'Ts', '9d', '8h', '7c'];
const lookup = cardIndex(CARDS);
const keys: PlayerKey[] = [1, 2, 3].map((i) => generateKey(seededRng(`player${i}`)));
const Y = jointKey(keys.map((k) => k.Y));

/** Card i under the joint key, re-randomized `times` times. */
function encrypted(card: string, times = 1, rng?: Rng): Ciphertext {
  let ct = initialDeck([card])[0]!;
  for (let t = 0; t < times; t++) ct = reencrypt(ct, Y, rng);
  return ct;
}

const ctx = (position: number, seat: number) => `t1|h1|share|${position}|${seat}`;

describe('decryption', () => {
  it('re-encryption hides the card, and all the shares open it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CARDS), fc.integer({ min: 1, max: 3 }), (card, times) => {
        const ct = encrypted(card, times);
        expect(ct.c1).not.toBe(IDENTITY_HEX);
        expect(ct.c2).not.toBe(cardPoint(card));
        expect(
          openCard(
            ct,
            keys.map((k) => ownShare(k, ct)),
            lookup,
          ),
        ).toBe(card);
      }),
      { numRuns: 8 },
    );
  });

  it('commutes: shares in any order open the same card', () => {
    const ct = encrypted('Qh');
    const Ds = keys.map((k, seat) => decryptionShare(k, ct, ctx(0, seat)).D);
    fc.assert(
      fc.property(fc.shuffledSubarray(Ds, { minLength: Ds.length, maxLength: Ds.length }), (order) => {
        expect(openCard(ct, order, lookup)).toBe('Qh');
      }),
      { numRuns: 10 },
    );
  });

  it('an owner opens with the others’ published shares and its own local one', () => {
    const ct = encrypted('Jc', 2);
    const [owner, ...others] = keys;
    const published = others.map((k, i) => decryptionShare(k, ct, ctx(5, i + 1)));
    others.forEach((k, i) => expect(verifyShare(k.Y, ct, published[i]!, ctx(5, i + 1))).toBe(true));
    const Ds = [...published.map((s) => s.D), ownShare(owner!, ct)];
    expect(openCard(ct, Ds, lookup)).toBe('Jc');
    // Without the owner's share the published ones open nothing.
    expect(() =>
      openCard(
        ct,
        published.map((s) => s.D),
        lookup,
      ),
    ).toThrowError(expect.objectContaining({ code: 'not_a_card' }));
  });

  it('ownShare is the D a published share carries', () => {
    const ct = encrypted('7c');
    expect(decryptionShare(keys[1]!, ct, ctx(1, 1)).D).toBe(ownShare(keys[1]!, ct));
  });

  it('throws not_a_card for a garbled ciphertext, invalid_point for a malformed one', () => {
    const ct = encrypted('As');
    const Ds = keys.map((k) => ownShare(k, ct));
    expect(() => openCard({ ...ct, c2: Point.fromHex(ct.c2).add(Point.BASE).toHex() }, Ds, lookup)).toThrowError(
      expect.objectContaining({ name: 'BlindError', code: 'not_a_card' }),
    );
    // Shares taken of another encryption of the same card.
    const other = encrypted('As');
    expect(() =>
      openCard(
        ct,
        keys.map((k) => ownShare(k, other)),
        lookup,
      ),
    ).toThrowError(expect.objectContaining({ code: 'not_a_card' }));
    expect(() => openCard(ct, [...Ds.slice(1), 'zz'], lookup)).toThrowError(
      expect.objectContaining({ code: 'invalid_point' }),
    );
    expect(() => openCard({ ...ct, c2: 'ff'.repeat(32) }, Ds, lookup)).toThrowError(
      expect.objectContaining({ code: 'invalid_point' }),
    );
  });

  it('opens the unshuffled deck with no shares at all', () => {
    const deck = initialDeck(CARDS);
    expect(deck.map((ct) => openCard(ct, [], lookup))).toEqual(CARDS);
  });
});

describe('decryptionShare / verifyShare', () => {
  const ct = encrypted('Ts', 1, seededRng('ct'));
  const other = encrypted('Ts', 1, seededRng('other ct'));
  const key = keys[0]!;
  const share = decryptionShare(key, ct, ctx(3, 0), seededRng('nonce'));

  it('accepts an honest share, also after a JSON round trip', () => {
    expect(verifyShare(key.Y, ct, share, ctx(3, 0))).toBe(true);
    expect(verifyShare(key.Y, ct, JSON.parse(JSON.stringify(share)) as DecryptionShare, ctx(3, 0))).toBe(true);
  });

  it('rejects a share for another context', () => {
    expect(verifyShare(key.Y, ct, share, ctx(3, 1))).toBe(false);
    expect(verifyShare(key.Y, ct, share, ctx(4, 0))).toBe(false);
  });

  it('rejects a share checked against another ciphertext or another key', () => {
    expect(verifyShare(key.Y, other, share, ctx(3, 0))).toBe(false);
    expect(verifyShare(key.Y, { c1: ct.c1, c2: other.c2 }, share, ctx(3, 0))).toBe(false);
    expect(verifyShare(keys[1]!.Y, ct, share, ctx(3, 0))).toBe(false);
  });

  it("rejects a wrong D: another key's, or a D shifted by a point", () => {
    const foreign = decryptionShare(keys[1]!, ct, ctx(3, 0)).D;
    expect(verifyShare(key.Y, ct, { ...share, D: foreign }, ctx(3, 0))).toBe(false);
    expect(verifyShare(key.Y, ct, { ...share, D: Point.fromHex(share.D).add(Point.BASE).toHex() }, ctx(3, 0))).toBe(
      false,
    );
    expect(verifyShare(key.Y, ct, { ...share, D: IDENTITY_HEX }, ctx(3, 0))).toBe(false);
  });

  it('rejects a tampered c or s', () => {
    expect(verifyShare(key.Y, ct, { ...share, s: scalarHex(Fn.add(parseScalar(share.s), 1n)) }, ctx(3, 0))).toBe(false);
    expect(verifyShare(key.Y, ct, { ...share, c: scalarHex(Fn.add(parseScalar(share.c), 1n)) }, ctx(3, 0))).toBe(false);
  });

  it('answers false, never throws, on garbage', () => {
    const cases: [string, Ciphertext, unknown][] = [
      ['nope', ct, share],
      [key.Y, { c1: 'zz', c2: ct.c2 }, share],
      [key.Y, { c1: IDENTITY_HEX, c2: ct.c2 }, share],
      [key.Y, ct, { ...share, D: share.D.toUpperCase() }],
      [key.Y, ct, { ...share, s: 'ff'.repeat(32) }],
      [key.Y, ct, null],
      [IDENTITY_HEX, ct, share],
    ];
    for (const [y, c, s] of cases) expect(verifyShare(y, c, s as DecryptionShare, ctx(3, 0))).toBe(false);
  });

  it('refuses to share with a key whose Y is not x·G', () => {
    expect(() => decryptionShare({ x: key.x, Y: keys[1]!.Y }, ct, ctx(3, 0))).toThrowError(
      expect.objectContaining({ code: 'invalid_point' }),
    );
    expect(() => decryptionShare({ x: 0n, Y: key.Y }, ct, ctx(3, 0))).toThrowError(
      expect.objectContaining({ code: 'invalid_scalar' }),
    );
  });

  it('refuses to share a ciphertext whose c1 is the identity (the unshuffled deck)', () => {
    const plain = initialDeck(['As'])[0]!;
    expect(() => decryptionShare(key, plain, ctx(0, 0))).toThrowError(
      expect.objectContaining({ code: 'invalid_point' }),
    );
    expect(() => ownShare(key, plain)).toThrowError(expect.objectContaining({ code: 'invalid_point' }));
  });
});
