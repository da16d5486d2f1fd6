import { ristretto255_hasher } from '@noble/curves/ed25519.js';
import { expand_message_xmd } from '@noble/curves/abstract/hash-to-curve.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { cardIndex, cardPoint, initialDeck } from './cards.js';
import { BlindError } from './errors.js';
import { IDENTITY_HEX, parseNonZeroPoint } from './group.js';

const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
const SUITS = ['c', 'd', 'h', 's'];
const DECK = RANKS.flatMap((r) => SUITS.map((s) => `${r}${s}`));

describe('cardPoint', () => {
  it('is a distinct valid non-identity point for each of the 52 cards', () => {
    const points = DECK.map(cardPoint);
    expect(new Set(points).size).toBe(52);
    for (const p of points) expect(parseNonZeroPoint(p).toHex()).toBe(p);
  });

  it('is stable: pinned vectors', () => {
    // Computed once with @noble/curves 2.4.0 as
    //   ristretto255_hasher.hashToCurve(utf8('felt-eb-v1' + card), { DST: 'felt-eb-v1' }).toHex()
    // (RFC 9380 hash_to_ristretto255: expand_message_xmd with SHA-512 to 64 bytes, then the RFC 9496
    // one-way map). Changing them changes every deck: that is a protocol version bump.
    expect(cardPoint('As')).toBe('82276630c3dd83133f723c6282db9586b807490fc9275776cc11381451067314');
    expect(cardPoint('2c')).toBe('3cc28404f46694ba2a03698bc19e1ede3069e1a1989bc8d32bb9a97452c51402');
  });

  it('follows RFC 9380: expand_message_xmd then the RFC 9496 element derivation', () => {
    for (const card of ['Td', 'Qh']) {
      const uniform = expand_message_xmd(utf8ToBytes(`felt-eb-v1${card}`), 'felt-eb-v1', 64, sha512);
      expect(cardPoint(card)).toBe(ristretto255_hasher.deriveToCurve!(uniform).toHex());
    }
  });

  it('refuses an empty name', () => {
    expect(() => cardPoint('')).toThrowError(BlindError);
  });
});

describe('initialDeck and cardIndex', () => {
  it('encrypts each card with randomness 0, in the order given', () => {
    const deck = initialDeck(DECK);
    expect(deck).toHaveLength(52);
    deck.forEach((ct, i) => {
      expect(ct.c1).toBe(IDENTITY_HEX);
      expect(ct.c2).toBe(cardPoint(DECK[i]!));
    });
  });

  it('looks points up, and answers undefined for a point that is no card', () => {
    const lookup = cardIndex(DECK);
    for (const card of DECK) expect(lookup(cardPoint(card))).toBe(card);
    expect(lookup(IDENTITY_HEX)).toBeUndefined();
    expect(lookup(cardPoint('Xx'))).toBeUndefined();
    expect(lookup(cardPoint('As').toUpperCase())).toBeUndefined();
  });

  it('refuses an empty deck or a repeated card with bad_deck', () => {
    for (const bad of [[], ['As', 'Kd', 'As']]) {
      expect(() => initialDeck(bad)).toThrowError(expect.objectContaining({ name: 'BlindError', code: 'bad_deck' }));
      expect(() => cardIndex(bad)).toThrowError(expect.objectContaining({ code: 'bad_deck' }));
    }
  });
});
