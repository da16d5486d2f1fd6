import type { FeltClient, LobbyRoomSummary } from '@felt/client';
import { LobbyFeedMode, lobbyFeedMode, lobbyRetryDelay } from '../lib/lobby-feed-mode.js';
import { Store } from './store.js';

/** What the live lobby uses of the SDK client. */
export type LobbyFeedClient = Pick<FeltClient, 'subscribeLobby' | 'unsubscribeLobby' | 'lobbyLive' | 'on'>;

/**
 * The page's live lobby (docs/protocol.md, "Live lobby"): subscribed on the app's FeltClient while
 * signed in, it holds the open listed rooms as the gateway sends them and hands each wallet balance
 * on. `mode` says whether the page may rely on it or must poll the lobby's HTTP API instead (before
 * the first list, after a refusal, while the socket is down). After `unavailable` (the lobby's feed
 * has not published yet) it subscribes again with a growing wait; after `rate_limited` a second later.
 */
export class LiveLobby {
  readonly mode = new Store<LobbyFeedMode>(LobbyFeedMode.POLLING);
  /** The rooms, oldest first, as last received; null before the first list. */
  readonly rooms = new Store<readonly LobbyRoomSummary[] | null>(null);
  private client: LobbyFeedClient | null = null;
  private offs: (() => void)[] = [];
  private retry: ReturnType<typeof setTimeout> | null = null;
  private refusals = 0;

  constructor(private readonly onWallet: (balance: number) => void) {}

  start(client: LobbyFeedClient): void {
    if (this.client === client) return;
    this.stop();
    this.client = client;
    this.offs = [
      client.on('lobby', (rooms) => {
        this.refusals = 0;
        this.rooms.set(rooms);
        this.sync();
      }),
      client.on('wallet', (balance) => this.onWallet(balance)),
      // The SDK forgets its list on close and subscribes again on the next open.
      client.on('close', () => this.sync()),
      client.on('open', () => this.sync()),
      client.on('error', (error) => {
        const wait = lobbyRetryDelay(error.code, this.refusals, client.lobbyLive);
        if (wait === null) return;
        if (error.code === 'unavailable') this.refusals++;
        this.schedule(wait);
      }),
    ];
    client.subscribeLobby();
    this.sync();
  }

  /** Signed out: stop the subscription and fall back to polling (nothing polls without a user). */
  stop(): void {
    for (const off of this.offs) off();
    this.offs = [];
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
    this.refusals = 0;
    const client = this.client;
    this.client = null;
    client?.unsubscribeLobby();
    this.rooms.set(null);
    this.mode.set(LobbyFeedMode.POLLING);
  }

  private schedule(waitMs: number): void {
    if (this.retry !== null) clearTimeout(this.retry);
    const client = this.client;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (client !== null && this.client === client && !client.lobbyLive) client.subscribeLobby();
    }, waitMs);
  }

  private sync(): void {
    this.mode.set(lobbyFeedMode(this.client?.lobbyLive ?? false));
  }
}
