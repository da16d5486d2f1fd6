import { describe, expect, it } from 'vitest';
import { ByteStream, commitOf, deckOrder, deckSeedOf, fromHex, toHex, unshuffledDeck } from './derive.js';

// The test vectors of docs/fairness.md, checked by the verifier's own implementation.
const SERVER_SEED = Uint8Array.from({ length: 32 }, (_, i) => i);
const HAND_ID = '00000000-0000-4000-8000-000000000000';

describe('verifier derivation matches the docs/fairness.md test vectors', () => {
  it('seed_commit', () => {
    expect(commitOf(SERVER_SEED)).toBe('sha256:630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd');
  });

  it('no client seeds', () => {
    const seed = deckSeedOf(SERVER_SEED, HAND_ID, []);
    expect(toHex(seed)).toBe('06980780c6fe2c763ce8ad8a0c4c6960e7180e714cd5a58a6d77381c062ee664');
    expect(deckOrder(seed, 'standard52').slice(0, 10)).toEqual('2s 6d 7c Ts Kh Ah 2c 8s 8h 6h'.split(' '));
    expect(deckOrder(seed, 'short36').slice(0, 10)).toEqual('Js 8h 7s 6s 6d 9h As 8s 9s Jc'.split(' '));
  });

  it('client seeds for seats 1 and 3, listed out of order', () => {
    const seed = deckSeedOf(SERVER_SEED, HAND_ID, [
      { seat: 3, seed: new Uint8Array(32).fill(0x11) },
      { seat: 1, seed: new Uint8Array(32).fill(0x22) },
    ]);
    expect(toHex(seed)).toBe('356c3e901778d5cc9aae2d3f17e5b693ce3d203c708bd69fe188b029b23664fc');
    expect(deckOrder(seed, 'standard52').join(' ')).toBe(
      'Th 2s 3h 7h 9h 8s 8c 9s 4c 8h Td 2d Qs Kh Jd 4s Ac 2c Qc Ks 4d 6d Kd 6h 9d 9c 7d Jc Kc Qh 6c As 5c Tc 8d 5s 3s 7s Jh Ad Qd 3c Ts 7c 5h 6s Js 3d 2h Ah 5d 4h',
    );
  });

  it('initial decks are in suit-then-rank order', () => {
    const full = unshuffledDeck('standard52');
    expect(full.slice(0, 3)).toEqual(['2c', '3c', '4c']);
    expect(full.slice(12, 14)).toEqual(['Ac', '2d']);
    expect(full.at(-1)).toBe('As');
    expect(unshuffledDeck('short36').slice(0, 2)).toEqual(['6c', '7c']);
    expect(unshuffledDeck('short36')).toHaveLength(36);
  });
});

/** The stream with its words replaced, so the rejection boundary can be hit exactly. */
class CraftedStream extends ByteStream {
  constructor(private readonly words: number[]) {
    super(new Uint8Array(32));
  }
  override word(): number {
    const w = this.words.shift();
    if (w === undefined) throw new Error('crafted stream exhausted');
    return w;
  }
}

describe('verifier rejection sampling', () => {
  it('accepts limit − 1 and rejects limit for every n in 2..52', () => {
    const span = 2 ** 32;
    for (let n = 2; n <= 52; n++) {
      const limit = span - (span % n);
      expect(new CraftedStream([limit - 1]).below(n)).toBe(n - 1);
      if (limit < span) {
        const s = new CraftedStream([limit, span - 1, 5]);
        expect(s.below(n)).toBe(5 % n);
      }
    }
  });
});

describe('hex', () => {
  it('parses either case and refuses anything else', () => {
    expect(toHex(fromHex('0aFf') as Uint8Array)).toBe('0aff');
    expect(fromHex('abc')).toBeNull();
    expect(fromHex('0x00')).toBeNull();
    expect(fromHex('')).toEqual(new Uint8Array(0));
  });
});
