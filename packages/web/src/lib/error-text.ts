// Every refusal a player can meet, as a sentence they can act on, from the message catalog. Codes come
// from three places: the table (protocol ErrorCode), the lobby's HTTP API (LobbyErrorCode), and the
// SDK itself. The catalog has a sentence for every code of each (the template-literal keys below do
// not compile otherwise); an unknown code (a newer server) falls back to a generic sentence that
// names the code, never to the server's own message.
import { CommandRefusedError, FeltSdkError, LobbyApiError, SdkErrorCode } from '@felt/client';
import {
  ChatDisabledReason,
  NotAllowedReason,
  ErrorCode,
  isErrorCode,
  LOBBY_ERROR_CODES,
  type ErrorMessage,
  type LobbyErrorCode,
} from '@felt/protocol';
import { t } from '../i18n/i18n.js';
import { chips } from './format.js';

const ILLEGAL_REASONS = [
  'cannot_check',
  'cannot_fold',
  'raise_not_reopened',
  'no_opponent_can_answer',
  'bring_in_due',
  'raise_cap_reached',
] as const;
type IllegalReason = (typeof ILLEGAL_REASONS)[number];

function isIllegalReason(reason: string): reason is IllegalReason {
  return (ILLEGAL_REASONS as readonly string[]).includes(reason);
}

function isChatDisabledReason(reason: string): reason is ChatDisabledReason {
  return (Object.values(ChatDisabledReason) as string[]).includes(reason);
}

function isNotAllowedReason(reason: string): reason is NotAllowedReason {
  return (Object.values(NotAllowedReason) as string[]).includes(reason);
}

function isLobbyErrorCode(code: string): code is LobbyErrorCode {
  return (LOBBY_ERROR_CODES as readonly string[]).includes(code);
}

/** The sentence for a table refusal, using its `reason`, `min` and `max` where they say more. */
export function tableErrorText(error: Pick<ErrorMessage, 'code' | 'reason' | 'min' | 'max'>): string {
  const code: string = error.code;
  if (code === ErrorCode.ILLEGAL_ACTION && error.reason !== undefined && isIllegalReason(error.reason)) {
    return t(`errors.illegal.${error.reason}`);
  }
  if (code === ErrorCode.INVALID_AMOUNT && error.min !== undefined && error.max !== undefined) {
    return t('errors.amountRange', { min: chips(error.min), max: chips(error.max) });
  }
  if (code === ErrorCode.CHAT_DISABLED && error.reason !== undefined && isChatDisabledReason(error.reason)) {
    return t(`errors.chatDisabled.${error.reason}`);
  }
  if (code === ErrorCode.NOT_ALLOWED && error.reason !== undefined && isNotAllowedReason(error.reason)) {
    return t(`errors.notAllowed.${error.reason}`);
  }
  return isErrorCode(code) ? t(`errors.table.${code}`) : t('errors.tableUnknown', { code });
}

export function lobbyErrorText(code: string, status?: number): string {
  if (isLobbyErrorCode(code)) return t(`errors.lobby.${code}`);
  if (status !== undefined && status >= 500) return t('errors.lobby.internal');
  return t('errors.lobbyUnknown', { code });
}

/** Any error the UI catches, as a sentence. Network failures read as connection problems. */
export function errorText(err: unknown): string {
  if (err instanceof CommandRefusedError) return tableErrorText(err.refusal);
  if (err instanceof LobbyApiError) {
    const wait = (err.details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
    if ((err.code === 'rate_limited' || err.code === 'busy') && typeof wait === 'number') {
      return t('errors.retryAfter', {
        text: lobbyErrorText(err.code, err.status),
        seconds: Math.max(1, Math.ceil(wait)),
      });
    }
    if (err.code === 'buy_in_out_of_range') {
      const d = err.details as { min?: unknown; max?: unknown } | undefined;
      if (typeof d?.min === 'number' && typeof d.max === 'number') {
        return t('errors.buyInRange', { min: chips(d.min), max: chips(d.max) });
      }
    }
    return lobbyErrorText(err.code, err.status);
  }
  if (err instanceof FeltSdkError) {
    switch (err.code) {
      case SdkErrorCode.COMMAND_TIMEOUT:
      case SdkErrorCode.NO_TURN:
      case SdkErrorCode.SESSION_CLOSED:
        return t(`errors.sdk.${err.code}`);
      default:
        return t('errors.generic');
    }
  }
  if (err instanceof TypeError) return t('errors.network');
  return t('errors.generic');
}
