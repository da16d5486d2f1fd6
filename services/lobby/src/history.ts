import { handKey, storedHandRecord, type PrismaClient } from '@felt/db';
import {
  ExportError,
  Hand,
  seesHoleCard,
  shownCards,
  toOhh,
  toPhh,
  viewOperationLog,
  type Card,
  type OhhHandHistory,
  type Operation,
  type ShownCards,
} from '@felt/engine';
import { DealingMode, toHandAction, type HandDetail, type HistoryPage, type RevealResponse } from '@felt/protocol';
import { ApiErrorCode, LobbyError } from './errors.js';

/**
 * Hand history for the players who were dealt in. Visibility: a player sees what they
 * could see at the table (their own cards, cards dealt face up, the board, every hand shown) plus
 * what the reveal made public (the seeds). Other players' cards that were never shown are never
 * served as cards, in any format, though the revealed server seed lets anyone rebuild the whole
 * deck and so reconstruct them (docs/fairness.md, honest limits). Which card a viewer saw is the
 * engine's one rule (`seesHoleCard`, `viewOperationLog`), for the operation log and every other field
 * alike.
 *
 * An engine-blind hand (`hands.dealing`, docs/fairness.md) was dealt by its players: it has no seed and
 * no reveal record, and the server knows only the board and the hands shown, so every other hole card
 * (the viewer's own included) is null for every viewer and `????` in PHH.
 */

/** What one viewer may see of a stored hand. */
interface Visibility {
  readonly seat: number;
  /** The cards each seat showed (at showdown, on an all-in runout, or voluntarily). */
  readonly shown: ShownCards;
}

/** Whether the viewer saw a dealt card: a board card (no owner), or a hole card by the engine's rule. */
function canSee(v: Visibility, owner: number | null, card: string, faceUp: boolean): boolean {
  return owner === null || seesHoleCard(v.seat, owner, card as Card, faceUp, v.shown);
}

/** The stored operation log: each row's `data` is the engine's operation as the hand recorded it. */
function operationsOf(actions: readonly { readonly data: unknown }[]): Operation[] {
  return actions.map((a) => a.data as Operation);
}

const chips = (n: bigint): number => Number(n);

/** `hands.dealing` as the API says it. */
const dealingOf = (stored: string): DealingMode =>
  stored === DealingMode.ENGINE_BLIND ? DealingMode.ENGINE_BLIND : DealingMode.STANDARD;

/** hands.payload is the whole job: the record sits in its `payload` or beside the envelope. */

function encodeCursor(endedAt: Date, handId: string): string {
  return Buffer.from(JSON.stringify({ e: endedAt.toISOString(), h: handId })).toString('base64url');
}

function decodeCursor(cursor: string): { endedAt: Date; handId: string } {
  try {
    const raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { e?: unknown; h?: unknown };
    if (typeof raw.e !== 'string' || typeof raw.h !== 'string') throw new Error('shape');
    const endedAt = new Date(raw.e);
    if (Number.isNaN(endedAt.getTime())) throw new Error('date');
    return { endedAt, handId: raw.h };
  } catch {
    throw new LobbyError(ApiErrorCode.INVALID_REQUEST, 'that cursor is not one this API gave out');
  }
}

/**
 * A seat's hole cards in an engine-blind hand, in deal order: the stored card where its owner showed
 * it (a shown card is public), null where nobody but its owner ever knew it. The log's `deal_hole`
 * gives the deck indices; `hand_cards` holds a hole card only once shown.
 */
function blindHoleCards(
  v: Visibility,
  operations: readonly Operation[],
  cards: readonly {
    readonly deckIndex: number;
    readonly card: string;
    readonly kind: string;
    readonly faceUp: boolean;
  }[],
  seat: number,
): (string | null)[] {
  const known = new Map(cards.filter((c) => c.kind === 'hole').map((c) => [c.deckIndex, c]));
  return operations.flatMap((op) =>
    op.type === 'deal_hole' && op.seat === seat
      ? op.indices.map((i) => {
          const c = known.get(i);
          return c !== undefined && canSee(v, seat, c.card, c.faceUp) ? c.card : null;
        })
      : [],
  );
}

export class History {
  constructor(private readonly prisma: PrismaClient) {}

  /** The user's hands, newest first (keyset paging on ended_at, hand id). */
  async list(userId: string, pageSize: number, cursor?: string): Promise<HistoryPage> {
    const after = cursor ? decodeCursor(cursor) : null;
    const rows = await this.prisma.handPlayer.findMany({
      where: {
        userId,
        ...(after
          ? {
              OR: [{ endedAt: { lt: after.endedAt } }, { endedAt: after.endedAt, handId: { lt: after.handId } }],
            }
          : {}),
      },
      orderBy: [{ endedAt: 'desc' }, { handId: 'desc' }],
      take: pageSize + 1,
      include: {
        hand: {
          select: {
            roomId: true,
            handNo: true,
            game: true,
            limit: true,
            blinds: true,
            startedAt: true,
            board: true,
            potTotal: true,
            rake: true,
            voidedReason: true,
            dealing: true,
            cards: { where: { kind: 'hole' }, select: { seat: true, card: true, deckIndex: true } },
          },
        },
      },
    });
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    return {
      hands: page.map((p) => ({
        hand_id: p.handId,
        session_id: p.hand.roomId,
        hand_no: p.hand.handNo,
        game: p.hand.game,
        limit: p.hand.limit,
        blinds: p.hand.blinds,
        started_at: p.hand.startedAt.toISOString(),
        ended_at: p.endedAt.toISOString(),
        seat: p.seat,
        cards: p.hand.cards
          .filter((c) => c.seat === p.seat)
          .sort((a, b) => a.deckIndex - b.deckIndex)
          .map((c) => c.card),
        board: p.hand.board,
        starting_stack: chips(p.startingStack),
        final_stack: chips(p.finalStack),
        net: chips(p.net),
        won: chips(p.won),
        folded: p.folded,
        pot_total: chips(p.hand.potTotal),
        rake: chips(p.hand.rake),
        ...(p.hand.voidedReason !== null ? { voided_reason: p.hand.voidedReason } : {}),
        dealing: dealingOf(p.hand.dealing),
      })),
      next: rows.length > pageSize && last ? encodeCursor(last.endedAt, last.handId) : null,
    };
  }

  /** One hand as the user may see it. */
  async get(userId: string, handId: string): Promise<HandDetail> {
    const { hand, visibility } = await this.load(userId, handId);
    const dealing = dealingOf(hand.dealing);
    const operations = operationsOf(hand.actions);
    const holeOf = (seat: number): (string | null)[] =>
      dealing === DealingMode.ENGINE_BLIND
        ? blindHoleCards(visibility, operations, hand.cards, seat)
        : hand.cards
            .filter((c) => c.kind === 'hole' && c.seat === seat)
            .sort((a, b) => a.deckIndex - b.deckIndex)
            .map((c) => (canSee(visibility, seat, c.card, c.faceUp) ? c.card : null));
    const actions = viewOperationLog(operations, visibility.seat).map((view, i) =>
      toHandAction(hand.actions[i]!.seq, view),
    );
    return {
      hand_id: hand.handId,
      session_id: hand.roomId,
      hand_no: hand.handNo,
      game: hand.game,
      limit: hand.limit,
      blinds: hand.blinds,
      button: hand.button,
      started_at: hand.startedAt.toISOString(),
      ended_at: hand.endedAt.toISOString(),
      viewer_seat: visibility.seat,
      board: hand.board,
      pot_total: chips(hand.potTotal),
      rake: chips(hand.rake),
      ...(hand.voidedReason !== null ? { voided_reason: hand.voidedReason } : {}),
      dealing,
      players: hand.players.map((p) => ({
        seat: p.seat,
        user_id: p.userId,
        name: p.name,
        starting_stack: chips(p.startingStack),
        contributed: chips(p.contributed),
        returned: chips(p.returned),
        won: chips(p.won),
        rake_paid: chips(p.rakePaid),
        final_stack: chips(p.finalStack),
        net: chips(p.net),
        folded: p.folded,
        cards: holeOf(p.seat),
        shown: visibility.shown.has(p.seat),
      })),
      actions,
      pots: hand.pots.map((p) => ({
        index: p.potIndex,
        amount: chips(p.amount),
        rake: chips(p.rake),
        eligible: p.eligible,
        contested: p.contested,
        winners: p.winners,
      })),
      fairness: {
        seed_commit: hand.seedCommit,
        server_seed: hand.serverSeed,
        client_seeds: hand.clientSeeds,
        deck_seed: hand.deckSeed,
        version: hand.derivation,
        deck: hand.deckKind,
      },
    };
  }

  /**
   * The reveal record `felt verify` checks (docs/fairness.md, derivation step 11), for this viewer:
   * the seeds, and every dealt index with its card where the viewer saw it; a card the viewer never
   * saw is withheld as `card: null` (the seeds still let anyone rebuild it).
   */
  async reveal(userId: string, handId: string): Promise<RevealResponse> {
    const { hand, visibility } = await this.load(userId, handId);
    if (hand.voidedReason !== null) {
      // Never dealt to the end: no seed was revealed, and none will be.
      throw new LobbyError(ApiErrorCode.EXPORT_UNSUPPORTED, 'a voided hand has no reveal record');
    }
    if (dealingOf(hand.dealing) === DealingMode.ENGINE_BLIND) {
      // Its players dealt it among themselves (each step checked as it was played): there is no seed.
      throw new LobbyError(ApiErrorCode.EXPORT_UNSUPPORTED, 'an engine-blind hand has no seed reveal');
    }
    const record = storedHandRecord(hand.payload).reveal as Record<string, unknown> | undefined;
    const withheld: number[] = [];
    const dealt = hand.cards
      .sort((a, b) => a.deckIndex - b.deckIndex)
      .map((c) => {
        const seen = canSee(visibility, c.seat, c.card, c.faceUp);
        if (!seen) withheld.push(c.deckIndex);
        return { index: c.deckIndex, card: seen ? c.card : null };
      });
    return {
      reveal: {
        hand_id: hand.handId,
        seed_commit: hand.seedCommit,
        server_seed: hand.serverSeed,
        client_seeds: hand.clientSeeds,
        deck_seed: hand.deckSeed,
        variant: typeof record?.variant === 'string' ? record.variant : hand.game,
        version: hand.derivation,
        ...(hand.deckKind ? { deck: hand.deckKind } : {}),
        dealt,
        ...(Array.isArray(record?.reshuffles) ? { reshuffles: record.reshuffles } : {}),
      },
      withheld,
    };
  }

  /** OHH 1.4 for this viewer (hero), with cards the viewer did not see left out. */
  async ohh(userId: string, handId: string): Promise<OhhHandHistory> {
    const { hand, visibility, engineHand } = await this.loadEngine(userId, handId);
    const names = Object.fromEntries(hand.players.map((p) => [p.seat, p.name]));
    const ohh = toOhh(engineHand, {
      siteName: 'Felt',
      currency: 'XPM',
      heroSeat: visibility.seat,
      viewer: visibility.seat,
    });
    for (const p of ohh.ohh.players) {
      p.name = names[p.seat] ?? p.name;
      p.display = p.name;
    }
    return ohh;
  }

  /**
   * PHH (pokerkit notation) for this viewer: unseen cards are written `??`, and so is every hole card
   * of an engine-blind hand nobody showed, the viewer's own included (the server never knew them).
   */
  async phh(userId: string, handId: string): Promise<string> {
    const { hand, visibility, engineHand } = await this.loadEngine(userId, handId);
    const names = Object.fromEntries(hand.players.map((p) => [p.seat, p.name]));
    let text: string;
    try {
      text = toPhh(engineHand, { names, viewer: visibility.seat });
    } catch (err) {
      if (err instanceof ExportError) {
        throw new LobbyError(ApiErrorCode.EXPORT_UNSUPPORTED, `PHH cannot express this hand: ${err.message}`);
      }
      throw err;
    }
    return text;
  }

  private async load(userId: string, handId: string) {
    if (handId.length > 128) throw new LobbyError(ApiErrorCode.HAND_NOT_FOUND, 'no such hand');
    // hand_ids names the hand's partition; the hand and its rows are then read from it alone.
    const key = await handKey(this.prisma, handId);
    const hand =
      key &&
      (await this.prisma.hand.findUnique({
        where: key,
        include: {
          players: { orderBy: { seat: 'asc' } },
          actions: { orderBy: { seq: 'asc' } },
          cards: { orderBy: { deckIndex: 'asc' } },
          pots: { orderBy: { potIndex: 'asc' } },
        },
      }));
    const me = hand?.players.find((p) => p.userId === userId);
    // Hands a user was not dealt into are not theirs to read: the same answer as a missing hand.
    if (!hand || !me) throw new LobbyError(ApiErrorCode.HAND_NOT_FOUND, 'no such hand among yours');
    const visibility: Visibility = { seat: me.seat, shown: shownCards(operationsOf(hand.actions)) };
    return { hand, visibility };
  }

  private async loadEngine(userId: string, handId: string) {
    const loaded = await this.load(userId, handId);
    if (loaded.hand.voidedReason !== null) {
      throw new LobbyError(ApiErrorCode.EXPORT_UNSUPPORTED, 'a voided hand has no play to export');
    }
    const json = storedHandRecord(loaded.hand.payload).hand;
    let engineHand: Hand;
    try {
      engineHand = Hand.fromJSON(json);
    } catch (err) {
      throw new LobbyError(ApiErrorCode.EXPORT_UNSUPPORTED, 'this hand cannot be replayed for export', undefined, {
        cause: err,
      });
    }
    return { ...loaded, engineHand };
  }
}
