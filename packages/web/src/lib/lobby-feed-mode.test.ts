import { describe, expect, it } from 'vitest';
import { LobbyFeedMode, lobbyFeedMode, shouldPoll } from './lobby-feed-mode.js';

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
