// The wallet's history from the lobby (`GET /api/wallet/history`): every movement of the player's
// chips outside the tables, newest first (@felt/protocol's walletHistoryPageSchema). This module
// checks the answer's shape field by field rather than trust a cast, and keeps a kind the protocol
// does not list yet (a newer server) where the schema would refuse the page; it turns kinds into the
// catalog's words.
import { WALLET_ENTRY_KINDS, type WalletEntryKind } from '@felt/protocol';

export { WALLET_ENTRY_KINDS, type WalletEntryKind };
import { t, type MessageKey } from '../i18n/i18n.js';

export interface WalletEntry {
  readonly id: string;
  /** ISO time the movement was posted. */
  readonly at: string;
  readonly kind: string;
  /** Chips into the wallet (positive) or out of it (negative). */
  readonly amount: number;
  /** The wallet just after this movement. */
  readonly balance: number;
  /** The room the chips went to or came from; null for a grant. */
  readonly room: { readonly session_id: string; readonly code: string } | null;
}

export interface WalletHistoryPage {
  readonly entries: readonly WalletEntry[];
  /** The cursor of the next (older) page; null on the last one. */
  readonly next: string | null;
}

/** Rows the page asks for at a time (the lobby allows 1..100). */
export const WALLET_PAGE_SIZE = 25;

/** The lobby path of one page: the first without a cursor, the next ones with the previous `next`. */
export function walletHistoryPath(cursor?: string, pageSize = WALLET_PAGE_SIZE): string {
  const qs = new URLSearchParams({ page_size: String(pageSize) });
  if (cursor !== undefined) qs.set('cursor', cursor);
  return `/api/wallet/history?${qs.toString()}`;
}

/** The lobby answered something that is not a wallet history page (a proxy's page, a broken server). */
export class WalletHistoryShapeError extends Error {
  override readonly name = 'WalletHistoryShapeError';
  readonly code = 'wallet_history_shape';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isWhole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

function entryOf(raw: unknown, i: number): WalletEntry {
  const bad = (field: string): never => {
    throw new WalletHistoryShapeError(`entries[${i}].${field} is not what the lobby's contract says`);
  };
  if (!isObject(raw)) return bad('(entry)');
  const { id, at, kind, amount, balance, room } = raw;
  if (typeof id !== 'string' || id === '') bad('id');
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) bad('at');
  if (typeof kind !== 'string' || kind === '') bad('kind');
  if (!isWhole(amount)) bad('amount');
  if (!isWhole(balance) || balance < 0) bad('balance');
  let where: WalletEntry['room'] = null;
  if (room !== null) {
    if (!isObject(room) || typeof room.session_id !== 'string' || typeof room.code !== 'string') bad('room');
    const r = room as { session_id: string; code: string };
    where = { session_id: r.session_id, code: r.code };
  }
  return {
    id: id as string,
    at: at as string,
    kind: kind as string,
    amount: amount as number,
    balance: balance as number,
    room: where,
  };
}

/** Checks a page from the lobby field by field; throws WalletHistoryShapeError on anything else. */
export function parseWalletHistoryPage(body: unknown): WalletHistoryPage {
  if (!isObject(body) || !Array.isArray(body.entries)) {
    throw new WalletHistoryShapeError('the answer has no entries list');
  }
  const { next } = body;
  if (next !== null && (typeof next !== 'string' || next === '')) {
    throw new WalletHistoryShapeError('next is neither a cursor nor null');
  }
  return { entries: body.entries.map(entryOf), next };
}

const KNOWN = new Set<string>(WALLET_ENTRY_KINDS);

/** What the movement was, in the page's language: "Buy-in", "Cash-out", "Chips granted". */
export function walletKindText(kind: string): string {
  const key: MessageKey = KNOWN.has(kind) ? `wallet.kind.${kind as WalletEntryKind}` : 'wallet.kind.other';
  return t(key);
}

/** Pages appended in order, without an entry twice (a page asked for twice while the first was loading). */
export function appendPage(shown: readonly WalletEntry[], page: WalletHistoryPage): WalletEntry[] {
  const seen = new Set(shown.map((e) => e.id));
  return [...shown, ...page.entries.filter((e) => !seen.has(e.id))];
}
