import type { FeltClient, LobbyClient, LobbyWaitlistEntry } from '@felt/client';
import type { WaitlistMessage } from '@felt/protocol';
import { Store } from './store.js';

/** What the waitlists use of the lobby's HTTP client. */
export type WaitlistLobby = Pick<LobbyClient, 'joinWaitlist' | 'leaveWaitlist' | 'waitlists'>;

/**
 * The player's waitlists after a `waitlist` message: an entry (waiting, offered) takes the room's
 * place in the list, or joins it at the end; none (seated, left, lapsed, closed) drops the room.
 */
export function applyWaitlistMessage(
  entries: readonly LobbyWaitlistEntry[],
  message: WaitlistMessage,
): readonly LobbyWaitlistEntry[] {
  const at = entries.findIndex((e) => e.session_id === message.session_id);
  if (message.entry === null) return at < 0 ? entries : entries.filter((_, i) => i !== at);
  if (at < 0) return [...entries, message.entry];
  return entries.map((e, i) => (i === at ? message.entry! : e));
}

/** Seconds left on a seat held for the player (0 once it lapsed), or null without an offer. */
export function offerSecondsLeft(entry: LobbyWaitlistEntry, now: number): number | null {
  if (entry.offer_expires_at === null) return null;
  return Math.max(0, Math.ceil((Date.parse(entry.offer_expires_at) - now) / 1000));
}

/**
 * The rooms the player waits at (docs/dev/contracts.md, "Waitlists"): read from GET /api/waitlists,
 * changed by joining and leaving lines here, and kept current by the live lobby's `waitlist`
 * messages; read again whenever the socket opens (a message may have been missed meanwhile).
 * `onNotice` hears each message (the page says "a seat is yours", "the offer lapsed").
 */
export class Waitlists {
  readonly entries = new Store<readonly LobbyWaitlistEntry[]>([]);
  private offs: (() => void)[] = [];

  constructor(
    private readonly lobby: WaitlistLobby,
    private readonly onNotice: (message: WaitlistMessage) => void = () => undefined,
  ) {}

  start(client: Pick<FeltClient, 'on'>): void {
    this.stop();
    this.offs = [
      client.on('waitlist', (message) => {
        this.entries.set(applyWaitlistMessage(this.entries.get(), message));
        this.onNotice(message);
      }),
      client.on('open', () => void this.refresh().catch(() => undefined)),
    ];
    void this.refresh().catch(() => undefined);
  }

  stop(): void {
    for (const off of this.offs) off();
    this.offs = [];
    this.entries.set([]);
  }

  async refresh(): Promise<void> {
    this.entries.set(await this.lobby.waitlists());
  }

  /** Joins the room's line; throws the lobby's refusal (seat_available, waitlist_full, …). */
  async join(roomId: string): Promise<LobbyWaitlistEntry> {
    const entry = await this.lobby.joinWaitlist(roomId);
    this.entries.set(
      applyWaitlistMessage(this.entries.get(), {
        type: 'waitlist',
        session_id: roomId,
        code: entry.code,
        status: entry.offer_expires_at === null ? 'waiting' : 'offered',
        entry,
      }),
    );
    return entry;
  }

  async leave(roomId: string): Promise<void> {
    await this.lobby.leaveWaitlist(roomId);
    this.entries.set(this.entries.get().filter((e) => e.session_id !== roomId));
  }

  /** The player took a seat at the room (its line no longer holds them). */
  seated(roomId: string): void {
    this.entries.set(this.entries.get().filter((e) => e.session_id !== roomId));
  }
}
