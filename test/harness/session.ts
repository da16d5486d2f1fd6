import { randomUUID } from 'node:crypto';
import { SESSION_COOKIE, signSessionToken } from '@felt/platform';

/**
 * A session cookie signed with the cluster's secret, for tests that need a user the lobby does not
 * know (a forged identity needs a different secret; see the refusal tests).
 */
export async function sessionCookie(
  secret: string,
  user: { userId: string; name: string; sessionId?: string; expiresAt?: number },
): Promise<string> {
  const token = await signSessionToken(secret, {
    userId: user.userId,
    sessionId: user.sessionId ?? randomUUID(),
    name: user.name,
    expiresAt: user.expiresAt ?? Math.floor(Date.now() / 1000) + 3600,
  });
  return `${SESSION_COOKIE}=${token}`;
}
