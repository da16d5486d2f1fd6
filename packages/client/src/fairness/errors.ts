export const VerifierErrorCode = {
  /** The input is not a reveal record at all (not a JSON object), so there is nothing to check. */
  UNUSABLE_RECORD: 'unusable_record',
  /** A caller-supplied option (the commit seen before the deal, the own seed) is itself malformed. */
  INVALID_OPTION: 'invalid_option',
  /** A reveal source (file, stdin, URL) could not be read or is not JSON. */
  SOURCE_UNREADABLE: 'source_unreadable',
} as const;
export type VerifierErrorCode = (typeof VerifierErrorCode)[keyof typeof VerifierErrorCode];

/**
 * Thrown only when verification cannot start. A record that fails its checks is not an error: that is a
 * {@link VerifyResult} with failures.
 *
 * Unlike the SDK's other errors it does not extend @felt/engine's CodedError: the verifier imports
 * nothing from the engine (see derive.ts), so the code it checks cannot shape the check.
 */
export class VerifierError extends Error {
  override readonly name = 'VerifierError';
  constructor(
    readonly code: VerifierErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
