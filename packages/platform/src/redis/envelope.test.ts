import { describe, expect, it } from 'vitest';
import { decodeEnvelope, encodeEnvelope, encodeEnvelopeAround, type Envelope } from './envelope.js';

describe('envelopes', () => {
  const msg = { type: 'table_state', table_seq: 9, seats: [{ name: 'Zoë' }] };

  it('a message already in JSON goes in as it is and decodes as the encoded envelope does', () => {
    const head = { table_id: 't1', table_seq: 9, except: ['u1'], trace_context: { traceparent: 'x' } };
    const text = '{"seats":[{"name":"Zo\\u00eb"}],"table_seq":9,"type":"table_state"}';
    const around = encodeEnvelopeAround(head, text);
    expect(around).toContain(`"msg":${text}`);
    const envelope: Envelope = { ...head, msg };
    expect(decodeEnvelope('table:t1', around)).toEqual(decodeEnvelope('table:t1', encodeEnvelope(envelope)));
  });

  it('refuses what is not an envelope, with its typed error', () => {
    expect(() => decodeEnvelope('table:t1', '{"table_id":"t1"')).toThrow(/invalid envelope on table:t1/);
    expect(() => decodeEnvelope('table:t1', encodeEnvelopeAround({ table_id: '', table_seq: 1 }, '{}'))).toThrow(
      expect.objectContaining({ code: 'envelope_invalid' }),
    );
  });
});
