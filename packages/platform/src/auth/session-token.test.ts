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
  });
});
