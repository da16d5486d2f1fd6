/**
 * The one error type of the crypto core. `code` is stable and machine-readable; messages are for
 * engineers and logs.
 */
export type BlindErrorCode = 'invalid_point' | 'invalid_scalar' | 'bad_proof' | 'not_a_card' | 'bad_deck';

export class BlindError extends Error {
  // A string literal, not new.target.name: a minifier renames classes and the name must survive.
  override readonly name = 'BlindError';

  constructor(
    readonly code: BlindErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
