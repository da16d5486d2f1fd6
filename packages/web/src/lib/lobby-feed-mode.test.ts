import { describe, expect, it } from 'vitest';
import {
  LOBBY_RATE_RETRY_MS,
  LOBBY_RETRY_MAX_MS,
  LOBBY_RETRY_MS,
  LobbyFeedMode,
  lobbyFeedMode,
  lobbyRetryDelay,
  shouldPoll,
} from './lobby-feed-mode.js';

describe('lobbyFeedMode and shouldPoll', () => {
  it('polls until the live list arrived, and stops as soon as it is live', () => {
    expect(lobbyFeedMode(false)).toBe(LobbyFeedMode.POLLING);
    expect(lobbyFeedMode(true)).toBe(LobbyFeedMode.LIVE);
    expect(shouldPoll(lobbyFeedMode(false), true)).toBe(true);
    expect(shouldPoll(lobbyFeedMode(true), true)).toBe(false);
  });

  it('resumes polling when the socket drops (the SDK is no longer live)', () => {
    const modes = [true, false].map(lobbyFeedMode);
    expect(modes.map((m) => shouldPoll(m, true))).toEqual([false, true]);
  });

  it('never polls from a hidden tab', () => {
    expect(shouldPoll(LobbyFeedMode.POLLING, false)).toBe(false);
    expect(shouldPoll(LobbyFeedMode.LIVE, false)).toBe(false);
  });
});

describe('lobbyRetryDelay', () => {
  it('subscribes again after unavailable, backing off from 5 s to a minute', () => {
    const waits = [0, 1, 2, 3, 4, 5, 10].map((n) => lobbyRetryDelay('unavailable', n, false));
    expect(waits).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000]);
    expect(waits[0]).toBe(LOBBY_RETRY_MS);
    expect(waits.at(-1)).toBe(LOBBY_RETRY_MAX_MS);
  });

  it('asks again for a fresh list a little over a second after rate_limited', () => {
    expect(lobbyRetryDelay('rate_limited', 0, false)).toBe(LOBBY_RATE_RETRY_MS);
    expect(LOBBY_RATE_RETRY_MS).toBeGreaterThan(1_000);
  });

  it('retries nothing once live, and no other error', () => {
    expect(lobbyRetryDelay('unavailable', 0, true)).toBeNull();
    expect(lobbyRetryDelay('rate_limited', 0, true)).toBeNull();
    expect(lobbyRetryDelay('internal', 0, false)).toBeNull();
    expect(lobbyRetryDelay('not_joined', 0, false)).toBeNull();
  });
});
