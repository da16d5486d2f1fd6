import { z } from 'zod';

/**
 * What workers publish on `P table:<id>` and `P user:<id>` (docs/dev/contracts.md). On a table
 * channel, `except` lists the users who got a personal copy of the same event on their user channel.
 */
export const envelopeSchema = z.object({
  table_id: z.string().min(1),
  table_seq: z.number().int().nonnegative(),
  except: z.array(z.string()).optional(),
  msg: z.looseObject({ type: z.string() }),
  /**
   * W3C trace context (traceparent, tracestate) of the operation that published it, when one was
   * traced: the gateway delivers under it, so a trace runs from the action to every socket it reached.
   */
  trace_context: z.record(z.string(), z.string()).optional(),
  /**
   * A notice for the gateways, never delivered to a socket. `reattach`: the table was built again
   * without the attachments it had (its checkpoint was lost with Redis's data), so every connection a
   * gateway holds as attached to it must attach again (each gets a fresh snapshot).
   */
  control: z.enum(['reattach']).optional(),
});
export type Envelope = z.infer<typeof envelopeSchema>;

export const EnvelopeErrorCode = { INVALID: 'envelope_invalid' } as const;
export type EnvelopeErrorCode = (typeof EnvelopeErrorCode)[keyof typeof EnvelopeErrorCode];

export class EnvelopeError extends Error {
  readonly code = EnvelopeErrorCode.INVALID;
  constructor(
    readonly channel: string,
    options?: { cause?: unknown },
  ) {
    super(`invalid envelope on ${channel}`, options);
    this.name = 'EnvelopeError';
  }
}

export function encodeEnvelope(envelope: Envelope): string {
  return JSON.stringify(envelope);
}

/**
 * encodeEnvelope for a message already in JSON (`msgText`, which must parse to the message): the
 * message is put in as it is instead of being encoded again.
 */
export function encodeEnvelopeAround(envelope: Omit<Envelope, 'msg'>, msgText: string): string {
  const head = JSON.stringify(envelope);
  return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"msg":${msgText}}`;
}

export function decodeEnvelope(channel: string, text: string): Envelope {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new EnvelopeError(channel, { cause: err });
  }
  const parsed = envelopeSchema.safeParse(raw);
  if (!parsed.success) throw new EnvelopeError(channel, { cause: parsed.error });
  return parsed.data;
}
