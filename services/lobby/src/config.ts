import { commonEnv, databaseEnv, envFlag, envList, envPort, sessionSecretEnv } from '@felt/platform';
import { z } from 'zod';

const wsUrl = z.string().refine(
  (s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'ws:' || u.protocol === 'wss:';
    } catch {
      return false;
    }
  },
  { message: 'expected ws:// or wss:// URLs like ws://127.0.0.1:8081/ws' },
);

/** The lobby's environment (docs/dev/contracts.md), validated at start-up. */
export const lobbyEnv = {
  ...commonEnv,
  ...databaseEnv,
  ...sessionSecretEnv,
  LOBBY_HOST: z.string().min(1).default('0.0.0.0'),
  LOBBY_PORT: envPort.default(8080),
  FELT_COOKIE_SECURE: envFlag.default(false),
  FELT_SIGNUP_GRANT: z.coerce
    .number({ message: 'expected a number of chips' })
    .int({ message: 'expected whole chips' })
    .min(0, { message: 'expected 0 or more chips' })
    .max(1_000_000_000, { message: 'expected at most 1000000000 chips' })
    .default(10_000),
  /**
   * worker (default): the table worker sends the final stack and the persister pays it
   * (docs/dev/money-flows.md); ledger: the lobby pays a leaving player's escrow at once (for a
   * cluster without table workers or persister).
   */
  FELT_CASH_OUT_MODE: z.enum(['ledger', 'worker']).default('worker'),
  /** Worker mode: how often the tables of closing rooms are reminded until they close. */
  FELT_CLOSE_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** The built web client served at `/`; empty serves the plain home page instead. */
  FELT_WEB_DIST: z.string().optional(),
  FELT_GATEWAY_URLS: envList
    .pipe(z.array(wsUrl).min(1, { message: 'expected at least one gateway URL' }))
    .default(['ws://127.0.0.1:8081/ws']),
};
