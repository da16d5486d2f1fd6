// The HTTP contract of the wallet history (issue 18). It belongs beside the rest of the contract in
// @felt/protocol (lobby-api.ts, LOBBY_ROUTES), where the SDK and the web client would read it; it
// lives here until that move, and the lobby's contract test checks it as one of the lobby's routes.
import { z } from '@hono/zod-openapi';
import type { LobbyRouteContract } from '@felt/protocol';

/**
 * Every kind of ledger transaction (prisma/schema.prisma, LedgerTxKind). A wallet sees grant,
 * buy_in, top_up, cash_out and refund (and a bot's wallet bot_stake and bot_return); the rest move
 * chips between escrows, the rake and the house, and are listed so that a new posting to a wallet
 * never fails the response schema.
 */
export const WALLET_ENTRY_KINDS = [
  'grant',
  'buy_in',
  'top_up',
  'cash_out',
  'refund',
  'hand_result',
  'rake',
  'bankroll_funding',
  'bot_stake',
  'bot_return',
] as const;
export type WalletEntryKind = (typeof WALLET_ENTRY_KINDS)[number];

/** Chips as the API carries them: whole, JSON-safe numbers. */
const chips = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const signedChips = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

export const WALLET_HISTORY_MAX_PAGE = 100;

export const walletHistoryQuerySchema = z.object({
  cursor: z.string().max(512).optional().describe('The `next` of the previous page'),
  page_size: z.coerce.number().int().min(1).max(WALLET_HISTORY_MAX_PAGE).default(20),
});
export type WalletHistoryQuery = z.input<typeof walletHistoryQuerySchema>;

export const walletEntrySchema = z.object({
  id: z.uuid().describe('The ledger entry'),
  at: z.iso.datetime().describe('When the movement was posted'),
  kind: z.enum(WALLET_ENTRY_KINDS),
  amount: signedChips.describe('Chips into the wallet (positive) or out of it (negative)'),
  balance: chips.describe('The wallet balance just after this movement'),
  room: z
    .object({ session_id: z.uuid(), code: z.string() })
    .nullable()
    .describe('The room the chips went to or came from; null for a grant'),
});
export type WalletEntry = z.infer<typeof walletEntrySchema>;

export const walletHistoryPageSchema = z.object({
  entries: z.array(walletEntrySchema).describe('Newest first'),
  next: z.string().nullable().describe('The cursor of the next (older) page; null on the last page'),
});
export type WalletHistoryPage = z.infer<typeof walletHistoryPageSchema>;

/** The lobby's routes whose contract is not (yet) in @felt/protocol's LOBBY_ROUTES. */
export const LOBBY_LOCAL_ROUTES = {
  'GET /api/wallet/history': { query: walletHistoryQuerySchema, success: { 200: walletHistoryPageSchema } },
} as const satisfies Readonly<Record<string, LobbyRouteContract>>;
