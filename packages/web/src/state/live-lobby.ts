import type { FeltClient, LobbyRoomSummary } from '@felt/client';
import { LobbyFeedMode, lobbyFeedMode } from '../lib/lobby-feed-mode.js';
import { Store } from './store.js';

/** What the live lobby uses of the SDK client. */
export type LobbyFeedClient = Pick<FeltClient, 'subscribeLobby' | 'unsubscribeLobby' | 'lobbyLive' | 'on'>;

/**
 * The page's live lobby (docs/protocol.md, "Live lobby"): subscribed on the app's FeltClient while
 * signed in, it holds the open listed rooms as the gateway sends them and hands each wallet balance
 * on. `mode` says whether the page may rely on it or must poll the lobby's HTTP API instead (before
 * the first list, after a refusal, while the socket is down). The SDK subscribes again by itself
 * after a refusal (`unavailable`: the lobby's feed has not published yet; `rate_limited`) and after a
 * reconnection, so the page only follows `lobbyLive`.
 */
export class LiveLobby {
  readonly mode = new Store<LobbyFeedMode>(LobbyFeedMode.POLLING);
  /** The rooms, oldest first, as last received; null before the first list. */
  readonly rooms = new Store<readonly LobbyRoomSummary[] | null>(null);
  private client: LobbyFeedClient | null = null;
  private offs: (() => void)[] = [];

  constructor(private readonly onWallet: (balance: number) => void) {}

  start(client: LobbyFeedClient): void {
    if (this.client === client) return;
    this.stop();
    this.client = client;
    this.offs = [
      client.on('lobby', (rooms) => {
        this.rooms.set(rooms);
        this.sync();
      }),
      client.on('wallet', (balance) => this.onWallet(balance)),
      // The SDK forgets its list on close and subscribes again on the next open.
      client.on('close', () => this.sync()),
      client.on('open', () => this.sync()),
      // A refused lobby_subscribe (after a gap, say): not live until the SDK's next try brings a list.
      client.on('error', () => this.sync()),
    ];
    client.subscribeLobby();
    this.sync();
  }

  /** Signed out: stop the subscription and fall back to polling (nothing polls without a user). */
  stop(): void {
    for (const off of this.offs) off();
    this.offs = [];
    const client = this.client;
    this.client = null;
    client?.unsubscribeLobby();
    this.rooms.set(null);
    this.mode.set(LobbyFeedMode.POLLING);
  }

  private sync(): void {
    this.mode.set(lobbyFeedMode(this.client?.lobbyLive ?? false));
  }
}
