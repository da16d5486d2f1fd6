import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeEnvelope,
  decodeEnvelopeText,
  encodeEnvelope,
  encodeEnvelopeAround,
  envelopeSchema,
  type Envelope,
} from './envelope.js';

/** The envelope a plain JSON.parse and the schema make of `text`: what decodeEnvelopeText must agree with. */
function parsedWhole(text: string): Envelope {
  return envelopeSchema.parse(JSON.parse(text));
}

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

  it("keeps the message's own text when the envelope ends with it", () => {
    const head = { table_id: 't1', table_seq: 9, except: ['u1'], trace_context: { traceparent: '00-ab-cd-01' } };
    const text = '{"seats":[{"name":"Zo\\u00eb"}],"table_seq":9,"type":"table_state"}';
    const decoded = decodeEnvelopeText('table:t1', encodeEnvelopeAround(head, text));
    // Byte for byte: the \u escape and the key order are the worker's, not JSON.stringify's.
    expect(decoded.msgText).toBe(text);
    expect(decoded.envelope).toEqual({ ...head, msg });
  });

  it('parses any other layout whole and leaves its message to be encoded again', () => {
    const cases = [
      // The message first.
      '{"msg":{"type":"chat","text":"a,\\"msg\\":1"},"table_id":"t1","table_seq":3}',
      // A member after the message: its text would not be one value.
      '{"table_id":"t1","table_seq":3,"msg":{"type":"chat"},"except":["u2"]}',
      // A "msg" key inside a head member, before the message.
      '{"table_id":"t1","table_seq":3,"trace_context":{"a":"b","msg":"c"},"msg":{"type":"chat"}}',
      // Pretty-printed.
      '{"table_id": "t1", "table_seq": 3, "msg": {"type": "chat"}}',
    ];
    for (const text of cases) {
      const decoded = decodeEnvelopeText('table:t1', text);
      expect(decoded.msgText).toBeUndefined();
      expect(decoded.envelope).toEqual(parsedWhole(text));
    }
  });

  it('a duplicate "msg" key is read as JSON.parse reads it: the last one', () => {
    // Split at the last: the head holds the first, and the message replaces it.
    const last = '{"msg":{"type":"first"},"table_id":"t1","table_seq":3,"msg":{"type":"last"}}';
    // Split at the first: what follows is not one value, so the whole is parsed.
    const first = '{"table_id":"t1","msg":{"type":"first"},"table_seq":3,"msg":{"type":"last"}}';
    for (const text of [last, first]) {
      const decoded = decodeEnvelopeText('table:t1', text);
      expect(decoded.envelope).toEqual(parsedWhole(text));
      expect(decoded.envelope.msg).toEqual({ type: 'last' });
    }
    expect(decodeEnvelopeText('table:t1', last).msgText).toBe('{"type":"last"}');
    expect(decodeEnvelopeText('table:t1', first).msgText).toBeUndefined();
  });

  it('refuses a broken envelope with its typed error whichever way it is read', () => {
    for (const text of [
      '{"table_id":"t1","table_seq":1,"msg":{"type":"x"}',
      '{"table_id":"t1","table_seq":1,"msg":{"type":1}}',
    ]) {
      expect(() => decodeEnvelopeText('table:t1', text)).toThrow(expect.objectContaining({ code: 'envelope_invalid' }));
    }
  });

  it('agrees with a whole parse on any envelope, and a kept text always parses to the message', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const message = fc.dictionary(fc.string(), json, { maxKeys: 5 }).map((o) => ({ ...o, type: 'm' }));
    const head = fc.record(
      {
        table_id: fc.string({ minLength: 1 }),
        table_seq: fc.nat(),
        except: fc.array(fc.string(), { maxLength: 3 }),
        trace_context: fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
      },
      { requiredKeys: ['table_id', 'table_seq'] },
    );
    fc.assert(
      fc.property(head, message, fc.boolean(), (h, m, around) => {
        const text = around ? encodeEnvelopeAround(h, JSON.stringify(m)) : encodeEnvelope({ ...h, msg: m });
        const decoded = decodeEnvelopeText('table:t', text);
        expect(decoded.envelope).toEqual(parsedWhole(text));
        if (around) expect(decoded.msgText).toBe(JSON.stringify(m));
        // The text is what the producer wrote: it parses to the message as the whole text holds it (the
        // schema's copy of a message may differ from that only by a "__proto__" key, which it drops).
        if (decoded.msgText !== undefined)
          expect(JSON.parse(decoded.msgText)).toEqual((JSON.parse(text) as { msg: unknown }).msg);
      }),
      { numRuns: 2000 },
    );
  });
});
