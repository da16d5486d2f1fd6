import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import { redisKeys } from '../redis/keys.js';

/**
 * The session cookie is a signed token (HS256) that any gateway can verify without a database call.
 * Revocation is a Redis key per session id (see {@link revokedSessionKey}); the lobby writes it on
 * logout and the gateway reads it on upgrade.
 */
export const SESSION_COOKIE = 'felt_session';

export interface SessionClaims {
  /** users.id */
  readonly userId: string;
  /** sessions.id: the unit of revocation */
  readonly sessionId: string;
  readonly name: string;
  /** Expiry, seconds since the epoch. */
  readonly expiresAt: number;
}

export const SessionTokenErrorCode = {
  MALFORMED: 'session_malformed',
  BAD_SIGNATURE: 'session_bad_signature',
  EXPIRED: 'session_expired',
} as const;
export type SessionTokenErrorCode = (typeof SessionTokenErrorCode)[keyof typeof SessionTokenErrorCode];

export class SessionTokenError extends Error {
  constructor(
    readonly code: SessionTokenErrorCode,
    options?: { cause?: unknown },
  ) {
    super(code, options);
    this.name = 'SessionTokenError';
  }
}

const ISSUER = 'felt';
const AUDIENCE = 'felt-session';

function keyOf(secret: string): Uint8Array {
  if (secret.length < 32) throw new Error('session secret must be at least 32 characters');
  return new TextEncoder().encode(secret);
}

export async function signSessionToken(secret: string, claims: SessionClaims): Promise<string> {
  return new SignJWT({ sid: claims.sessionId, name: claims.name })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(claims.expiresAt)
    .sign(keyOf(secret));
}

export async function verifySessionToken(secret: string, token: string): Promise<SessionClaims> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
    });
    const { sub, sid, name, exp } = payload;
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof name !== 'string' || typeof exp !== 'number') {
      throw new SessionTokenError(SessionTokenErrorCode.MALFORMED);
    }
    return { userId: sub, sessionId: sid, name, expiresAt: exp };
  } catch (err) {
    if (err instanceof SessionTokenError) throw err;
    if (err instanceof joseErrors.JWTExpired)
      throw new SessionTokenError(SessionTokenErrorCode.EXPIRED, { cause: err });
    if (err instanceof joseErrors.JWSSignatureVerificationFailed) {
      throw new SessionTokenError(SessionTokenErrorCode.BAD_SIGNATURE, { cause: err });
    }
    throw new SessionTokenError(SessionTokenErrorCode.MALFORMED, { cause: err });
  }
}

/**
 * Redis key whose presence means the session was revoked. Set with a TTL up to the token's expiry.
 * The same key as `redisKeys(prefix).revoked(sessionId)`.
 */
export function revokedSessionKey(prefix: string, sessionId: string): string {
  return redisKeys(prefix).revoked(sessionId);
}

/**
 * Reads one cookie from a Cookie header. Never throws: the header is whatever the client sent, so a
 * value that is not valid percent-encoding reads as absent (the caller then treats the request as
 * signed out) rather than failing the request.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    // RFC 6265 allows the value in double quotes.
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
