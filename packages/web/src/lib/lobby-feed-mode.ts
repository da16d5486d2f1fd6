// Where the lobby screen's list and the header's wallet come from: the live lobby over the
// WebSocket (docs/protocol.md, "Live lobby") whenever it is live, else polling the lobby's HTTP API as
// the page always did. The SDK says when it is live (`FeltClient.lobbyLive`: subscribed, and this
// socket's first list arrived); this module decides what the page does about it.

export const LobbyFeedMode = { LIVE: 'live', POLLING: 'polling' } as const;
export type LobbyFeedMode = (typeof LobbyFeedMode)[keyof typeof LobbyFeedMode];

/** How often the page polls GET /api/rooms and GET /api/me while the live lobby is not live. */
export const LOBBY_POLL_MS = 3_000;

/** The first wait before subscribing again after `unavailable` (the feed has not published yet). */
export const LOBBY_RETRY_MS = 5_000;
/** The longest wait between two subscriptions refused with `unavailable`. */
export const LOBBY_RETRY_MAX_MS = 60_000;
/** After `rate_limited`: the gateway gives a socket one fresh list a second. */
export const LOBBY_RATE_RETRY_MS = 1_500;

/** Live while the SDK's list is current; polling otherwise (not yet received, refused, socket down). */
export function lobbyFeedMode(lobbyLive: boolean): LobbyFeedMode {
  return lobbyLive ? LobbyFeedMode.LIVE : LobbyFeedMode.POLLING;
}

/** Whether a poll tick loads: only while polling, and only while the tab is visible. */
export function shouldPoll(mode: LobbyFeedMode, visible: boolean): boolean {
  return mode === LobbyFeedMode.POLLING && visible;
}

/**
 * After an error that belongs to no table: how long to wait before `subscribeLobby()` again, or null
 * when it is no refusal of the live lobby to retry. `refusals` counts the `unavailable` answers since
 * the last list (0 for the first): the wait doubles from {@link LOBBY_RETRY_MS} up to
 * {@link LOBBY_RETRY_MAX_MS}, so a lobby that stays without a feed is not asked every 5 s forever.
 * Once live there is nothing to retry: the SDK asks for fresh lists itself.
 */
export function lobbyRetryDelay(code: string, refusals: number, lobbyLive: boolean): number | null {
  if (lobbyLive) return null;
  if (code === 'unavailable') return Math.min(LOBBY_RETRY_MS * 2 ** Math.max(0, refusals), LOBBY_RETRY_MAX_MS);
  if (code === 'rate_limited') return LOBBY_RATE_RETRY_MS;
  return null;
}
