// Tooling: inspects every message one recipient received for data it must not see (invariant 2 of
// docs/architecture.md; docs/fairness.md): another seat's hidden cards, the deck, or a seed before the reveal.
// Engine-blind dealing's fields (table_state.dealing, blind_step) carry public values only: points and
// scalars in hex, which no card or secret key matches, and a position's card once it is open.
// It works on raw JSON and knows only which fields may carry a card, so a leak under any field
// name is caught.

export const PrivacyViolationKind = {
  /** A card value in a place this recipient may not see it (another seat's hidden card). */
  FOREIGN_CARD: 'foreign_card',
  /** A deck or seed field outside seed_reveal. */
  SECRET_FIELD: 'secret_field',
  /** seed_reveal for a hand whose hand_result this recipient had not yet received. */
  EARLY_REVEAL: 'early_reveal',
  /** A revealed seed's value had appeared in an earlier message of the hand. */
  SEED_BEFORE_REVEAL: 'seed_before_reveal',
  /** A hero view for a spectator, or for another seat. */
  FOREIGN_HERO: 'foreign_hero',
} as const;
export type PrivacyViolationKind = (typeof PrivacyViolationKind)[keyof typeof PrivacyViolationKind];

export interface PrivacyViolation {
  readonly kind: PrivacyViolationKind;
  readonly messageType: string;
  readonly tableSeq: number | null;
  readonly handId: string | null;
  /** JSON path of the offending value, e.g. `seats[2].cards[0]`. */
  readonly path: string;
}

const CARD = /^[2-9TJQKA][cdhs]$/;
const SECRET_KEYS = new Set(['server_seed', 'deck_seed', 'client_seeds', 'deck', 'dealt', 'reshuffles']);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

interface HandLog {
  resultSeen: boolean;
  /** A showdown (or cards_shown) of this hand reached this recipient. */
  showdownSeen: boolean;
  /** Cards made public by showdown or cards_shown, per seat. */
  shown: Map<number, Set<string>>;
  /** Every string value received during the hand, to look revealed seeds up in afterwards. */
  strings: Set<string>;
}

/**
 * Audits one recipient's stream. Feed it every server message in arrival order with `observe`.
 * `seat` is the recipient's own seat (null for a spectator); it may change (a player sits down).
 */
export class PrivacyAuditor {
  readonly violations: PrivacyViolation[] = [];
  private readonly hands = new Map<string, HandLog>();
  /** Messages inspected. */
  messages = 0;

  constructor(private ownSeat: number | null) {}

  setSeat(seat: number | null): void {
    this.ownSeat = seat;
  }

  observe(raw: unknown): void {
    if (!isObject(raw)) return;
    this.messages++;
    if (raw.type === 'resync_response') {
      const events = Array.isArray(raw.replayed_events) ? raw.replayed_events : [];
      for (const [i, e] of events.entries()) if (isObject(e)) this.inspect(e, `replayed_events[${i}].`);
      if (isObject(raw.snapshot)) this.inspect(raw.snapshot, 'snapshot.');
      return;
    }
    this.inspect(raw, '');
  }

  private hand(handId: string): HandLog {
    let log = this.hands.get(handId);
    if (!log) {
      log = { resultSeen: false, showdownSeen: false, shown: new Map(), strings: new Set() };
      this.hands.set(handId, log);
      // Only the last few hands can still receive messages.
      if (this.hands.size > 16) this.hands.delete(this.hands.keys().next().value!);
    }
    return log;
  }

  private flag(kind: PrivacyViolationKind, msg: Record<string, Json>, path: string): void {
    this.violations.push({
      kind,
      messageType: typeof msg.type === 'string' ? msg.type : '?',
      tableSeq: typeof msg.table_seq === 'number' ? msg.table_seq : null,
      handId: typeof msg.hand_id === 'string' ? msg.hand_id : null,
      path,
    });
  }

  private inspect(msg: Record<string, Json>, prefix: string): void {
    const type = typeof msg.type === 'string' ? msg.type : '';
    const handId = typeof msg.hand_id === 'string' ? msg.hand_id : null;
    const log = handId !== null ? this.hand(handId) : null;

    // Learn what this message makes public before judging its cards.
    if (log !== null && type === 'showdown' && Array.isArray(msg.shown)) {
      log.showdownSeen = true;
      for (const s of msg.shown) if (isObject(s)) this.noteShown(handId!, log, s.seat, s.cards);
    }
    if (log !== null && type === 'cards_shown') {
      log.showdownSeen = true;
      this.noteShown(handId!, log, msg.seat, msg.cards);
    }
    if (log !== null && type === 'hand_result') log.resultSeen = true;

    if (type === 'seed_reveal') {
      if (log !== null && !log.resultSeen) this.flag(PrivacyViolationKind.EARLY_REVEAL, msg, `${prefix}reveal`);
      const reveal = isObject(msg.reveal) ? msg.reveal : {};
      if (log !== null) {
        const secrets: string[] = [];
        for (const k of ['server_seed', 'deck_seed'] as const) {
          const v = reveal[k];
          if (typeof v === 'string') secrets.push(v);
        }
        if (Array.isArray(reveal.client_seeds)) {
          for (const c of reveal.client_seeds) if (isObject(c) && typeof c.seed === 'string') secrets.push(c.seed);
        }
        // The recipient's own client seed is its own: only seeds it could not have known count.
        for (const s of secrets) {
          if (log.strings.has(s) && !this.ownSecrets.has(s)) {
            this.flag(PrivacyViolationKind.SEED_BEFORE_REVEAL, msg, `${prefix}reveal`);
          }
        }
      }
      return; // A reveal after the result shows the whole deck by design (docs/fairness.md, honest limits).
    }

    if (type === 'table_state' && msg.hero !== undefined) {
      const hero = msg.hero;
      if (this.ownSeat === null || !isObject(hero) || hero.seat !== this.ownSeat) {
        this.flag(PrivacyViolationKind.FOREIGN_HERO, msg, `${prefix}hero`);
      }
    }

    this.walk(msg, msg, prefix, [], log);
  }

  /** Seeds this recipient sent itself (so finding them earlier in its stream is no leak). */
  private readonly ownSecrets = new Set<string>();

  /** Tell the auditor about a client seed this recipient sent. */
  noteOwnSeed(seedHex: string): void {
    this.ownSecrets.add(seedHex);
  }

  private noteShown(handId: string, log: HandLog, seat: Json | undefined, cards: Json | undefined): void {
    if (typeof seat !== 'number' || !Array.isArray(cards)) return;
    let set = log.shown.get(seat);
    if (!set) log.shown.set(seat, (set = new Set()));
    let pub = this.shownPublicly.get(handId);
    if (!pub) this.shownPublicly.set(handId, (pub = new Map<number, Set<string>>()));
    let pubSet = pub.get(seat);
    if (!pubSet) pub.set(seat, (pubSet = new Set()));
    for (const c of cards) {
      if (typeof c !== 'string') continue;
      set.add(c);
      pubSet.add(c);
    }
  }

  /** Every card this recipient saw shown in public (showdown, cards_shown): hand → seat → cards. */
  readonly shownPublicly = new Map<string, Map<number, Set<string>>>();

  /**
   * Shown cards in a snapshot of a finished hand whose showdown this recipient never received (it
   * joined afterwards): legitimate only if that seat really showed them, which another recipient's
   * stream must confirm. {@link settlePrivacyAudits} does that.
   */
  readonly unconfirmedReveals: { handId: string; seat: number; card: string; violation: PrivacyViolation }[] = [];

  private walk(
    msg: Record<string, Json>,
    node: Json,
    prefix: string,
    path: (string | number)[],
    log: HandLog | null,
  ): void {
    if (typeof node === 'string') {
      if (log !== null) log.strings.add(node);
      if (CARD.test(node) && !this.cardAllowed(msg, path, node, log)) {
        this.flag(PrivacyViolationKind.FOREIGN_CARD, msg, prefix + formatPath(path));
      }
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((child, i) => this.walk(msg, child, prefix, [...path, i], log));
      return;
    }
    if (!isObject(node)) return;
    for (const [key, child] of Object.entries(node)) {
      if (SECRET_KEYS.has(key)) {
        this.flag(PrivacyViolationKind.SECRET_FIELD, msg, prefix + formatPath([...path, key]));
        continue;
      }
      this.walk(msg, child, prefix, [...path, key], log);
    }
  }

  /** Where a card may legitimately appear for this recipient. */
  private cardAllowed(
    msg: Record<string, Json>,
    path: (string | number)[],
    card: string,
    log: HandLog | null,
  ): boolean {
    const type = msg.type;
    const [head, i, sub, j] = path;
    // A chat text is what a person typed ("As" is a word there, not a card the server gave away).
    if (type === 'chat_message' && head === 'text') return true;
    // Community cards and up cards are public.
    if (head === 'board') return true;
    if (type === 'street_revealed' && head === 'up_cards' && sub === 'cards') return true;
    // Shown hands are public once shown.
    if (type === 'showdown' && head === 'shown') return true;
    if (type === 'cards_shown' && head === 'cards') return true;
    if (type === 'hole_cards_dealt' && head === 'cards') {
      return this.ownSeat !== null && msg.seat === this.ownSeat;
    }
    if (type === 'table_state' && head === 'dealing' && i === 'blind' && sub === 'positions' && path[4] === 'card') {
      return this.blindCardAllowed(msg, j, card, log);
    }
    if (type === 'table_state' && head === 'hero' && i === 'cards') {
      return this.ownSeat !== null && isObject(msg.hero) && msg.hero.seat === this.ownSeat;
    }
    if (
      type === 'table_state' &&
      head === 'seats' &&
      typeof i === 'number' &&
      sub === 'cards' &&
      typeof j === 'number'
    ) {
      const seat = Array.isArray(msg.seats) ? msg.seats[i] : undefined;
      if (!isObject(seat)) return false;
      if (this.ownSeat !== null && seat.seat === this.ownSeat) return true;
      if (Array.isArray(seat.up) && seat.up[j] === true) return true;
      const shown = typeof seat.seat === 'number' ? log?.shown.get(seat.seat) : undefined;
      if (shown?.has(card)) return true;
      if (
        log !== null &&
        !log.showdownSeen &&
        (msg.phase === 'showdown' || msg.phase === 'complete') &&
        typeof seat.seat === 'number' &&
        typeof msg.hand_id === 'string'
      ) {
        this.unconfirmedReveals.push({
          handId: msg.hand_id,
          seat: seat.seat,
          card,
          violation: {
            kind: PrivacyViolationKind.FOREIGN_CARD,
            messageType: 'table_state',
            tableSeq: typeof msg.table_seq === 'number' ? msg.table_seq : null,
            handId: msg.hand_id,
            path: formatPath(path),
          },
        });
        return true;
      }
      return false;
    }
    return false;
  }

  /**
   * Engine-blind dealing: a dealt position carries its card once it is open for everyone, a board
   * card or a hole card its owner showed. Only a show sends the owner's own share, so a hole card of
   * another seat is open only beside that share (or after a showdown this recipient saw).
   */
  private blindCardAllowed(
    msg: Record<string, Json>,
    index: string | number | undefined,
    card: string,
    log: HandLog | null,
  ): boolean {
    const blind = isObject(msg.dealing) && isObject(msg.dealing.blind) ? msg.dealing.blind : null;
    const position =
      blind !== null && Array.isArray(blind.positions) && typeof index === 'number'
        ? blind.positions[index]
        : undefined;
    if (!isObject(position)) return false;
    const to = position.to;
    if (to === 'board') return true;
    if (typeof to !== 'number') return false;
    if (this.ownSeat !== null && to === this.ownSeat) return true;
    if (isObject(position.shares) && position.shares[String(to)] !== undefined) return true;
    return log?.shown.get(to)?.has(card) === true;
  }
}

function formatPath(path: (string | number)[]): string {
  return path.map((p, k) => (typeof p === 'number' ? `[${p}]` : k === 0 ? p : `.${p}`)).join('');
}

/**
 * Judges every auditor's unconfirmed reveals against the cards all of them saw shown in public, and
 * adds a violation for each that no recipient saw shown. Call once, after the run. Returns how many
 * violations it added.
 */
export function settlePrivacyAudits(auditors: readonly PrivacyAuditor[]): number {
  const shown = new Map<string, Map<number, Set<string>>>();
  for (const a of auditors) {
    for (const [hand, seats] of a.shownPublicly) {
      let h = shown.get(hand);
      if (!h) shown.set(hand, (h = new Map<number, Set<string>>()));
      for (const [seat, cards] of seats) {
        let set = h.get(seat);
        if (!set) h.set(seat, (set = new Set()));
        for (const c of cards) set.add(c);
      }
    }
  }
  let added = 0;
  for (const a of auditors) {
    for (const u of a.unconfirmedReveals.splice(0)) {
      if (shown.get(u.handId)?.get(u.seat)?.has(u.card)) continue;
      a.violations.push(u.violation);
      added++;
    }
  }
  return added;
}
