import { CodedError } from '@felt/engine';
import type { ErrorMessage } from '@felt/protocol';

export const SdkErrorCode = {
  /** The server refused a command; `serverCode` is the protocol's ErrorCode. */
  COMMAND_REFUSED: 'command_refused',
  /** No ack or error arrived for a command after every retry. */
  COMMAND_TIMEOUT: 'command_timeout',
  /** `act` was called while it is not the hero's turn (nothing was sent). */
  NO_TURN: 'no_turn',
  /** The table session or client was closed before the command settled. */
  SESSION_CLOSED: 'session_closed',
  /** Engine-blind dealing: `show` with no hole card of the hero's in an engine-blind hand (nothing was sent). */
  BLIND_NOTHING_TO_SHOW: 'blind_nothing_to_show',
  /** Engine-blind dealing: the hero's own check of the table failed, so the seat sends nothing more this hand. */
  BLIND_AUDIT_FAILED: 'blind_audit_failed',
} as const;
export type SdkErrorCode = (typeof SdkErrorCode)[keyof typeof SdkErrorCode];

/** Every error the SDK rejects a promise with: a stable `code` plus structured fields. */
export class FeltSdkError extends CodedError<SdkErrorCode> {
  override readonly name: string = 'FeltSdkError';
  constructor(
    code: SdkErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    options?: ErrorOptions,
  ) {
    super(code, message, options);
  }
}

/** A command refused by the server: nothing was applied (invariant 8 of docs/architecture.md). */
export class CommandRefusedError extends FeltSdkError {
  override readonly name = 'CommandRefusedError';
  constructor(
    readonly commandId: string,
    readonly commandType: string,
    readonly refusal: ErrorMessage,
  ) {
    super(SdkErrorCode.COMMAND_REFUSED, `${commandType} refused: ${refusal.code}: ${refusal.message}`, {
      commandId,
      serverCode: refusal.code,
      ...(refusal.reason !== undefined ? { reason: refusal.reason } : {}),
    });
  }

  /** The protocol's error code, e.g. `not_your_turn` or `stale_turn_token`. */
  get serverCode(): ErrorMessage['code'] {
    return this.refusal.code;
  }
}
