import { CommandRefusedError, FeltSdkError, LobbyApiError, SdkErrorCode } from '@felt/client';
import { ERROR_CODES } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { errorText, lobbyErrorText, tableErrorText } from './error-text.js';

describe('error text', () => {
  it('has a plain sentence for every protocol error code, never the code itself', () => {
    for (const code of ERROR_CODES) {
      const text = tableErrorText({ code });
      expect(text).toMatch(/^[A-Z].*[.!]$/);
      if (code.includes('_')) expect(text).not.toContain(code);
    }
  });

  it('uses the reason of an illegal action and the range of a bad amount', () => {
    expect(tableErrorText({ code: 'illegal_action', reason: 'cannot_check' })).toBe(
      'You cannot check: there is a bet to call.',
    );
    expect(tableErrorText({ code: 'illegal_action', reason: 'no_opponent_can_answer' })).toBe(
      'Nobody left in the hand can call more: you can only call or fold.',
    );
    expect(tableErrorText({ code: 'illegal_action', reason: 'raise_cap_reached' })).toBe(
      'The betting is capped on this street.',
    );
    expect(tableErrorText({ code: 'illegal_action', reason: 'something_new' })).toBe(
      'That move is not allowed right now.',
    );
    expect(tableErrorText({ code: 'chat_disabled', reason: 'chat_off' })).toBe(
      'The host has turned chat off at this table.',
    );
    expect(tableErrorText({ code: 'chat_disabled', reason: 'spectators_muted' })).toBe(
      'Only players may chat at this table; spectators can read along.',
    );
    expect(tableErrorText({ code: 'not_allowed', reason: 'host_only' })).toBe('Only the host can start a hand now.');
    expect(tableErrorText({ code: 'not_allowed', reason: 'tournament' })).toContain('director');
    expect(tableErrorText({ code: 'not_allowed' })).toBe('That is not yours to do at this table.');
    expect(tableErrorText({ code: 'chat_disabled' })).toBe(
      'Chat is off here: the room has it turned off, or only players may chat.',
    );
    expect(tableErrorText({ code: 'invalid_amount', min: 40, max: 1200 })).toBe(
      'That amount is not allowed: choose between 40 and 1,200.',
    );
  });

  it('maps SDK refusals, lobby errors and network failures', () => {
    const refused = new CommandRefusedError('c1', 'action', { type: 'error', code: 'not_your_turn', message: 'x' });
    expect(errorText(refused)).toBe('It is not your turn.');
    expect(errorText(new LobbyApiError(409, 'seat_taken', 'seat 3 is taken'))).toBe(
      'Someone just took that seat. Pick another one.',
    );
    expect(errorText(new LobbyApiError(400, 'buy_in_out_of_range', 'x', { min: 40, max: 200 }))).toContain(
      'between 40 and 200',
    );
    expect(errorText(new LobbyApiError(503, 'http_503', 'x'))).toBe(lobbyErrorText('internal'));
    expect(errorText(new LobbyApiError(429, 'rate_limited', 'x', { retry_after_seconds: 29.5 }))).toBe(
      'Too many attempts. Wait a little and try again. (about 30 s)',
    );
    expect(errorText(new LobbyApiError(503, 'busy', 'x'))).toBe(lobbyErrorText('busy'));
    for (const code of ['origin_not_allowed', 'room_limit_reached', 'busy']) {
      expect(lobbyErrorText(code)).not.toBe('The lobby refused that. Try again.');
    }
    expect(errorText(new FeltSdkError(SdkErrorCode.COMMAND_TIMEOUT, 'x'))).toContain('did not answer');
    expect(errorText(new TypeError('Failed to fetch'))).toContain('Cannot reach Felt');
    expect(errorText('weird')).toBe('Something went wrong. Try again.');
  });
});
