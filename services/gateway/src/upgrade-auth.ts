import {
  readCookie,
  redisKeys,
  SESSION_COOKIE,
  SessionTokenError,
  SessionTokenErrorCode,
  verifySessionToken,
  type Redis,
  type SessionClaims,
} from '@felt/platform';

export const RefusalReason = {
  ORIGIN: 'origin_not_allowed',
  NO_COOKIE: 'no_session',
  BAD_TOKEN: 'bad_session',
  EXPIRED: 'session_expired',
  REVOKED: 'session_revoked',
  UNAVAILABLE: 'auth_unavailable',
} as const;
export type RefusalReason = (typeof RefusalReason)[keyof typeof RefusalReason];

export type UpgradeDecision =
  | { readonly ok: true; readonly claims: SessionClaims }
  | { readonly ok: false; readonly status: 401 | 403 | 503; readonly reason: RefusalReason };

/**
 * Browsers always send Origin on a WebSocket handshake, so a foreign page is refused here.
 * Clients that are not browsers (bots, the load runner) send none; they cannot be made to act for
 * someone else by a web page, and they still need a valid session.
 */
export function originAllowed(origin: string, allowed: ReadonlySet<string>): boolean {
  return origin === '' || allowed.has(origin);
}

export interface UpgradeAuthOptions {
  readonly secret: string;
  readonly redis: Redis;
  readonly prefix: string;
  readonly allowedOrigins: ReadonlySet<string>;
}

/**
 * Decides an upgrade from its Origin and Cookie headers alone: the session token is verified by
 * signature and expiry, and revocation is one Redis EXISTS. The database is never asked.
 */
export async function authorizeUpgrade(
  options: UpgradeAuthOptions,
  headers: { readonly origin: string; readonly cookie: string },
): Promise<UpgradeDecision> {
  if (!originAllowed(headers.origin, options.allowedOrigins))
    return { ok: false, status: 403, reason: RefusalReason.ORIGIN };
  const token = readCookie(headers.cookie, SESSION_COOKIE);
  if (!token) return { ok: false, status: 401, reason: RefusalReason.NO_COOKIE };
  let claims: SessionClaims;
  try {
    claims = await verifySessionToken(options.secret, token);
  } catch (err) {
    if (err instanceof SessionTokenError && err.code === SessionTokenErrorCode.EXPIRED)
      return { ok: false, status: 401, reason: RefusalReason.EXPIRED };
    return { ok: false, status: 401, reason: RefusalReason.BAD_TOKEN };
  }
  try {
    const revoked = await options.redis.exists(redisKeys(options.prefix).revoked(claims.sessionId));
    if (revoked > 0) return { ok: false, status: 401, reason: RefusalReason.REVOKED };
  } catch {
    // Without the revocation list we cannot tell a logged-out session from a live one.
    return { ok: false, status: 503, reason: RefusalReason.UNAVAILABLE };
  }
  return { ok: true, claims };
}
