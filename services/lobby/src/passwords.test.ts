import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

const FAST = { N: 1024, r: 8, p: 1 };

describe('scrypt password hashes', () => {
  it('store their parameters and a fresh salt, and verify only the right password', async () => {
    const a = await hashPassword('hunter22', FAST);
    const b = await hashPassword('hunter22', FAST);
    expect(a).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('hunter22', a)).toBe(true);
    expect(await verifyPassword('hunter23', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('verify with the parameters stored in the hash, not the current defaults', async () => {
    const cheap = await hashPassword('same', { N: 2048, r: 4, p: 1 });
    expect(await verifyPassword('same', cheap)).toBe(true);
  });

  it('treat Unicode-equivalent passwords alike (NFKC)', async () => {
    const h = await hashPassword('caf\u00e9', FAST);
    expect(await verifyPassword('cafe\u0301', h)).toBe(true);
  });

  it('refuse malformed or absurd stored hashes instead of throwing', async () => {
    const good = await hashPassword('pw', FAST);
    const parts = good.split('$');
    for (const bad of [
      '',
      'plain',
      good.replace('scrypt', 'bcrypt'),
      [...parts.slice(0, 1), '3', ...parts.slice(2)].join('$'), // N not a power of two
      [...parts.slice(0, 1), String(1 << 22), ...parts.slice(2)].join('$'), // N too large
      [...parts.slice(0, 5), 'c2hvcnQ'].join('$'), // wrong key length
    ]) {
      expect(await verifyPassword('pw', bad), bad).toBe(false);
    }
  });
});
