import {
  readCookie,
  revocationState,
  RevocationState,
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
 * signature and expiry, and revocation is one Redis round trip (the lobby keeps the revocation keys
 * complete from Postgres and says so with a marker; while the marker is missing, the keys may be
 * incomplete and the upgrade is refused: fail closed). The database is never asked.
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
  let state: RevocationState;
  try {
    state = await revocationState(options.redis, options.prefix, claims.sessionId);
  } catch {
    // Without the revocation list we cannot tell a logged-out session from a live one.
    return { ok: false, status: 503, reason: RefusalReason.UNAVAILABLE };
  }
  if (state === RevocationState.REVOKED) return { ok: false, status: 401, reason: RefusalReason.REVOKED };
  // Redis lost the revocation keys (a restart without persistence): until a lobby has reloaded them
  // from Postgres, a logged-out cookie would look live.
  if (state === RevocationState.UNKNOWN) return { ok: false, status: 503, reason: RefusalReason.UNAVAILABLE };
  return { ok: true, claims };
}
