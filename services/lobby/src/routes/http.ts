/** What every route module shares: the app's environment, response helpers and the error body. */
import type { z } from '@hono/zod-openapi';
import type { AuthenticatedUser } from '../accounts.js';
import type { ApiErrorCode, ApiErrorStatus } from '../errors.js';
import { lobbyErrorSchema } from '../schemas.js';

/**
 * What the Node server passes each request (@hono/node-server); absent when a test calls
 * `app.request()` without it.
 */
export interface NodeBindings {
  readonly incoming?: { readonly socket?: { readonly remoteAddress?: string | undefined } };
}

export type Env = { Bindings: NodeBindings; Variables: { auth: AuthenticatedUser } };

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

export const errors = (...codes: Exclude<ApiErrorStatus, 500>[]) =>
  Object.fromEntries(codes.map((code) => [code, json(lobbyErrorSchema, 'Refused; `error.code` says why')])) as Record<
    number,
    ReturnType<typeof json<typeof lobbyErrorSchema>>
  >;

export const cookieAuth = [{ cookieAuth: [] }];

export function chips(n: bigint): number {
  return Number(n);
}

export function errorBody(code: ApiErrorCode, message: string, details?: Readonly<Record<string, unknown>>) {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

/** A short, safe summary of zod issues: paths and messages, never the input. */
export function describeIssues(error: z.ZodError): { message: string; issues: { path: string; message: string }[] } {
  const issues = error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  return {
    message: issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '),
    issues,
  };
}
