import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCookie, SessionTokenError, signSessionToken, verifySessionToken } from './session-token.js';

const secret = 'x'.repeat(40);
const claims = { userId: 'u1', sessionId: 's1', name: 'Zoë', expiresAt: Math.floor(Date.now() / 1000) + 60 };

describe('session token', () => {
  it('round-trips', async () => {
    const token = await signSessionToken(secret, claims);
    expect(await verifySessionToken(secret, token)).toEqual(claims);
  });

  it('refuses a forged signature, an expired token and garbage', async () => {
    const token = await signSessionToken(secret, claims);
    await expect(verifySessionToken('y'.repeat(40), token)).rejects.toMatchObject({ code: 'session_bad_signature' });
    const expired = await signSessionToken(secret, { ...claims, expiresAt: Math.floor(Date.now() / 1000) - 10 });
    await expect(verifySessionToken(secret, expired)).rejects.toMatchObject({ code: 'session_expired' });
    await expect(verifySessionToken(secret, 'not.a.token')).rejects.toBeInstanceOf(SessionTokenError);
  });

  it('reads cookies', () => {
    expect(readCookie('a=1; felt_session=abc%3D; b=2', 'felt_session')).toBe('abc=');
    expect(readCookie(undefined, 'felt_session')).toBeUndefined();
    expect(readCookie('felt_session="abc"', 'felt_session')).toBe('abc');
  });

  // A value that is not valid percent-encoding once threw URIError, a 500 and an error log per request.
  it('reads a badly encoded value as absent instead of throwing', () => {
    for (const bad of ['%', '%E0%A4%A', '%ZZ', 'abc%', '%C3%28', '%ED%A0%80']) {
      expect(readCookie(`a=1; felt_session=${bad}; b=2`, 'felt_session')).toBeUndefined();
    }
    // Only the named cookie's own value matters: a bad neighbour doesn't hide it.
    expect(readCookie('a=%; felt_session=ok%20value', 'felt_session')).toBe('ok value');
  });

  it('never throws, whatever the header', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string(), (header, name) => {
        const value = readCookie(header, name);
        expect(value === undefined || typeof value === 'string').toBe(true);
        expect(() => readCookie(`felt_session=${header}`, 'felt_session')).not.toThrow();
      }),
      { numRuns: 1000, seed: 13 },
    );
  });
});
