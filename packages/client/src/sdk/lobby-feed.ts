import type { LobbyDelta, LobbyRooms, LobbyRoomSummary } from '@felt/protocol';

/** What applying one live-lobby message did. */
export type LobbyFeedResult =
  /** The list changed (a fresh list, or a delta that followed the version held). */
  | 'applied'
  /** A delta older than the list held (sent before the fresh list was read): ignored. */
  | 'stale'
  /** A delta that does not follow the version held: a message was lost; ask for a fresh list. */
  | 'gap';

/**
 * The live lobby's list as a client holds it (docs/protocol.md, "Live lobby"): replaced by each
 * `lobby_rooms`, moved on by each `lobby_delta` whose prev_version is the version held. Rooms stay in
 * the server's order (oldest first).
 */
export class LobbyFeedState {
  private held: number | null = null;
  private readonly byId = new Map<string, LobbyRoomSummary>();

  /** The version held, or null before the first list. */
  get version(): number | null {
    return this.held;
  }

  /** The rooms, oldest first; empty before the first list. */
  rooms(): LobbyRoomSummary[] {
    return [...this.byId.values()].sort(
      (a, b) => a.created_at.localeCompare(b.created_at) || a.session_id.localeCompare(b.session_id),
    );
  }

  apply(message: LobbyRooms | LobbyDelta): LobbyFeedResult {
    if (message.type === 'lobby_rooms') {
      this.byId.clear();
      for (const r of message.rooms) this.byId.set(r.session_id, r);
      this.held = message.version;
      return 'applied';
    }
    if (this.held === null) return 'stale';
    if (message.version <= this.held) return 'stale';
    if (message.prev_version !== this.held) return 'gap';
    for (const id of message.removed) this.byId.delete(id);
    for (const r of message.upserts) this.byId.set(r.session_id, r);
    this.held = message.version;
    return 'applied';
  }

  /** The socket closed: deltas are ignored until the next fresh list (the rooms stay, as last known). */
  lost(): void {
    this.held = null;
  }
}
