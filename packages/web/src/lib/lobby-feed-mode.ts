// Where the lobby screen's list and the header's wallet come from: the live lobby over the
// WebSocket (docs/protocol.md, "Live lobby") whenever it is live, else polling the lobby's HTTP API as
// the page always did. The SDK says when it is live (`FeltClient.lobbyLive`: subscribed, and this
// socket's first list arrived) and subscribes again by itself after a refusal (`unavailable`,
// `rate_limited`) and a reconnection; this module decides what the page does meanwhile.

export const LobbyFeedMode = { LIVE: 'live', POLLING: 'polling' } as const;
export type LobbyFeedMode = (typeof LobbyFeedMode)[keyof typeof LobbyFeedMode];

/** How often the page polls GET /api/rooms and GET /api/me while the live lobby is not live. */
export const LOBBY_POLL_MS = 3_000;

/** Live while the SDK's list is current; polling otherwise (not yet received, refused, socket down). */
export function lobbyFeedMode(lobbyLive: boolean): LobbyFeedMode {
  return lobbyLive ? LobbyFeedMode.LIVE : LobbyFeedMode.POLLING;
}

/** Whether a poll tick loads: only while polling, and only while the tab is visible. */
export function shouldPoll(mode: LobbyFeedMode, visible: boolean): boolean {
  return mode === LobbyFeedMode.POLLING && visible;
}
