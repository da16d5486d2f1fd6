import { encodeEnvelope, encodeEnvelopeAround, type Envelope, type RedisKeys } from '@felt/platform';
import type { Publication } from '../ports.js';

/** What goes on the wire for one publication (docs/dev/contracts.md, "Envelope on both channel kinds"). */
export function publicationEnvelope(
  tableId: string,
  p: Publication,
  traceContext?: Readonly<Record<string, string>>,
): Envelope {
  return { ...envelopeHead(tableId, p, traceContext), msg: p.message };
}

/** The envelope's fields but its message. */
function envelopeHead(
  tableId: string,
  p: Publication,
  traceContext: Readonly<Record<string, string>> | undefined,
): Omit<Envelope, 'msg'> {
  return {
    table_id: tableId,
    table_seq: p.message.table_seq,
    ...(p.audience.kind === 'table' && p.audience.except.length > 0 ? { except: [...p.audience.except] } : {}),
    ...(traceContext ? { trace_context: { ...traceContext } } : {}),
  };
}

/** The envelope's text: a publication's prepared JSON (a snapshot's) goes in as it is. */
export function encodePublication(
  tableId: string,
  p: Publication,
  traceContext?: Readonly<Record<string, string>>,
): string {
  if (p.text === undefined) return encodeEnvelope(publicationEnvelope(tableId, p, traceContext));
  return encodeEnvelopeAround(envelopeHead(tableId, p, traceContext), p.text);
}

/** The channel a publication goes to: the table's (spectator view) or its user's own at the table. */
export function publicationChannel(keys: RedisKeys, tableId: string, p: Publication): string {
  return p.audience.kind === 'table' ? keys.table(tableId) : keys.userAtTable(tableId, p.audience.userId);
}

/** The gateways' notice that a table was built again without its attachments (EventPublisher.tableReset). */
export function resetEnvelope(tableId: string, tableSeq: number): Envelope {
  return {
    table_id: tableId,
    table_seq: tableSeq,
    control: 'reattach',
    msg: { type: 'table_reset', table_id: tableId, table_seq: tableSeq },
  };
}
