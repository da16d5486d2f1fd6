import { Emitter, type FeltClientEvents, type LobbyRoomSummary } from '@felt/client';
import type { ErrorMessage } from '@felt/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LobbyFeedMode } from '../lib/lobby-feed-mode.js';
import { LiveLobby, type LobbyFeedClient } from './live-lobby.js';

/** The SDK's side as the page sees it: subscriptions counted, events fired by the test. */
class FakeClient implements LobbyFeedClient {
  readonly events = new Emitter<FeltClientEvents>();
  subscribes = 0;
  unsubscribes = 0;
  lobbyLive = false;
  subscribeLobby(): void {
    this.subscribes++;
  }
  unsubscribeLobby(): void {
    this.unsubscribes++;
    this.lobbyLive = false;
  }
  on<K extends keyof FeltClientEvents>(event: K, listener: (payload: FeltClientEvents[K]) => void) {
    return this.events.on(event, listener);
  }
  list(rooms: LobbyRoomSummary[]): void {
    this.lobbyLive = true;
    this.events.emit('lobby', rooms);
  }
  drop(): void {
    this.lobbyLive = false;
    this.events.emit('close', { code: 1006, reason: '', fatal: false });
  }
  refuse(code: ErrorMessage['code']): void {
    this.events.emit('error', { type: 'error', code, message: 'refused', reason: 'live_lobby' });
  }
}

const ROOM = { session_id: '00000000-0000-4000-8000-000000000001', code: '123456' } as LobbyRoomSummary;

describe('LiveLobby', () => {
  let client: FakeClient;
  let wallets: number[];
  let live: LiveLobby;

  beforeEach(() => {
    vi.useFakeTimers();
    client = new FakeClient();
    wallets = [];
    live = new LiveLobby((b) => wallets.push(b));
  });
  afterEach(() => {
    live.stop();
    vi.useRealTimers();
  });

  it('subscribes, polls until the first list, then is live with the rooms; wallets are handed on', () => {
    live.start(client);
    expect(client.subscribes).toBe(1);
    expect(live.mode.get()).toBe(LobbyFeedMode.POLLING);
    expect(live.rooms.get()).toBeNull();
    client.list([ROOM]);
    expect(live.mode.get()).toBe(LobbyFeedMode.LIVE);
    expect(live.rooms.get()).toEqual([ROOM]);
    client.events.emit('wallet', 950);
    expect(wallets).toEqual([950]);
  });

  it('falls back to polling when the socket drops, and is live again with the next list', () => {
    live.start(client);
    client.list([ROOM]);
    client.drop();
    expect(live.mode.get()).toBe(LobbyFeedMode.POLLING);
    // The rooms stay as last known while polling takes over.
    expect(live.rooms.get()).toEqual([ROOM]);
    client.list([]);
    expect(live.mode.get()).toBe(LobbyFeedMode.LIVE);
    expect(live.rooms.get()).toEqual([]);
  });

  it('polls after a refusal until the list the SDK asks for again arrives, and never asks twice itself', () => {
    live.start(client);
    client.list([ROOM]);
    // A gap: the SDK dropped its list and asked for a fresh one, which the gateway refused.
    client.lobbyLive = false;
    client.refuse('rate_limited');
    expect(live.mode.get()).toBe(LobbyFeedMode.POLLING);
    vi.advanceTimersByTime(60_000);
    expect(client.subscribes).toBe(1);
    client.list([]);
    expect(live.mode.get()).toBe(LobbyFeedMode.LIVE);
  });

  it('stops: unsubscribes, hears nothing more and polls', () => {
    live.start(client);
    live.stop();
    expect(client.unsubscribes).toBe(1);
    client.list([ROOM]);
    client.events.emit('wallet', 10);
    expect(live.rooms.get()).toBeNull();
    expect(live.mode.get()).toBe(LobbyFeedMode.POLLING);
    expect(wallets).toEqual([]);
  });
});
