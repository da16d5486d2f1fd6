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

/** An envelope as a gateway delivers it: the envelope, and its message as the text that arrived. */
export interface DecodedEnvelope {
  readonly envelope: Envelope;
  /**
   * The message's JSON exactly as the producer wrote it, when it came last in the envelope (as
   * encodeEnvelopeAround writes it): a gateway sends this text to its sockets instead of encoding the
   * message again for every envelope. Undefined for any other layout.
   */
  readonly msgText: string | undefined;
}

/** The message member as encodeEnvelopeAround writes it, after the head's members. */
const MSG_MEMBER = ',"msg":';

export function decodeEnvelope(channel: string, text: string): Envelope {
  return decodeEnvelopeText(channel, text).envelope;
}

/**
 * decodeEnvelope, keeping the message's own text when the envelope ends with it. The head and the
 * message are then parsed apart, which costs what one parse of the whole would: the head (everything
 * before the last member, closed) and the message must each parse on their own, so the message's text
 * is exactly one JSON value and the last member of the envelope. Any other text (another layout, a
 * `"msg":` key inside a head member) is parsed whole, and its message is left to be encoded again.
 */
export function decodeEnvelopeText(channel: string, text: string): DecodedEnvelope {
  const split = splitAtMessage(text);
  let raw: unknown;
  if (split !== undefined) {
    raw = split.raw;
  } else {
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw new EnvelopeError(channel, { cause: err });
    }
  }
  const parsed = envelopeSchema.safeParse(raw);
  if (!parsed.success) throw new EnvelopeError(channel, { cause: parsed.error });
  return { envelope: parsed.data, msgText: split?.msgText };
}

/** `{<head members>,"msg":<message>}` taken apart, or undefined when the text is not of that shape. */
function splitAtMessage(text: string): { raw: Record<string, unknown>; msgText: string } | undefined {
  const at = text.indexOf(MSG_MEMBER);
  if (at < 1 || text.charCodeAt(0) !== 0x7b || text.charCodeAt(text.length - 1) !== 0x7d) return undefined;
  const msgText = text.slice(at + MSG_MEMBER.length, -1);
  let head: unknown;
  let msg: unknown;
  try {
    head = JSON.parse(`${text.slice(0, at)}}`);
    msg = JSON.parse(msgText);
  } catch {
    return undefined;
  }
  if (head === null || typeof head !== 'object' || Array.isArray(head)) return undefined;
  // A "msg" in the head too: JSON.parse keeps the last of duplicate keys, and so does this.
  return { raw: { ...(head as Record<string, unknown>), msg }, msgText };
}
