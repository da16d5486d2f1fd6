// Request generators for the HTTP fuzz test, driven by the lobby's own OpenAPI document: every route
// it documents is fuzzed, with bodies that start valid by its schemas and are then mutated.
import fc from 'fast-check';

/** The parts of an OpenAPI 3.0 schema object the generators read. */
export interface JsonSchema {
  readonly $ref?: string;
  readonly type?: string;
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly nullable?: boolean;
  readonly pattern?: string;
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
}

interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly schema?: JsonSchema;
}

interface OperationObject {
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly content?: Readonly<Record<string, { readonly schema?: JsonSchema }>> };
  readonly security?: readonly unknown[];
}

export interface OpenApiDocument {
  readonly paths: Readonly<Record<string, Readonly<Record<string, OperationObject>>>>;
  readonly components?: { readonly schemas?: Readonly<Record<string, JsonSchema>> };
}

/** One documented operation. */
export interface Route {
  readonly method: string;
  /** As documented: `/api/rooms/{id}`. */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly query: readonly Parameter[];
  readonly headers: readonly Parameter[];
  readonly body: JsonSchema | undefined;
  readonly authenticated: boolean;
}

export function routesOf(doc: OpenApiDocument): Route[] {
  const routes: Route[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = op.parameters ?? [];
      routes.push({
        method: method.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        query: params.filter((p) => p.in === 'query'),
        headers: params.filter((p) => p.in === 'header'),
        body: op.requestBody?.content?.['application/json']?.schema,
        authenticated: (op.security ?? []).length > 0,
      });
    }
  }
  return routes;
}

/** Who sends the request: a signed-in player, or a cookie that should not work. */
export type Auth =
  | { readonly kind: 'player'; readonly index: number }
  | { readonly kind: 'disposable' }
  | { readonly kind: 'none' }
  | { readonly kind: 'cookie'; readonly value: string };

export interface FuzzRequest {
  readonly method: string;
  /** Path and query, ready for app.request. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array<ArrayBuffer> | undefined;
  readonly auth: Auth;
  /** The socket address the request comes from. */
  readonly address: string;
}

/** Values the world already holds, so that valid requests reach past "not found". */
export interface Known {
  readonly roomIds: readonly string[];
  readonly codes: readonly string[];
  readonly names: readonly string[];
}

/** Percent-encodes UTF-8 (a lone surrogate becomes U+FFFD instead of throwing as encodeURIComponent does). */
function encode(s: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9._~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Raw URL fragments that are not valid percent-encoding or not valid UTF-8 once decoded. */
const RAW_URL_EVIL = ['%', '%Z', '%ZZ', '%C3%28', '%ED%A0%80', '%FF%FE', '%00', '%E0%A4%A', '..', '%2e%2e', '%2F'];

const weird = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1e400',
  '-0',
  'NaN',
  'Infinity',
  '0x10',
  '9007199254740993',
  '1'.repeat(400),
  'null',
  'true',
  '[]',
  '{}',
  '\u0000',
  '\uD800',
  '😀',
  'a'.repeat(3000),
);

const hugeNumber = fc.constantFrom(
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 63,
  -(2 ** 63),
  1e21,
  5e-324,
  -0,
  0.5,
  -1,
);

/** Literal JSON that JSON.stringify can't produce: numbers beyond a double, odd spellings. */
const RAW_JSON_NUMBERS = ['1e400', '-1e400', '123456789012345678901234567890', '1.0e+2', '-0.0', '0.1e-400'];

export class RequestGenerator {
  private readonly schemas: Readonly<Record<string, JsonSchema>>;

  constructor(
    doc: OpenApiDocument,
    private readonly known: Known,
  ) {
    this.schemas = doc.components?.schemas ?? {};
  }

  private resolve(schema: JsonSchema): JsonSchema {
    if (!schema.$ref) return schema;
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = this.schemas[name];
    if (!target) throw new Error(`unresolved ${schema.$ref}`);
    return this.resolve(target);
  }

  /** Values that satisfy the schema, or nearly: bounds and patterns are followed where it is cheap. */
  valid(schema: JsonSchema, key = '', depth = 0): fc.Arbitrary<unknown> {
    const s = this.resolve(schema);
    const base = this.validBase(s, key, depth);
    return s.nullable ? fc.oneof({ weight: 4, arbitrary: base }, { weight: 1, arbitrary: fc.constant(null) }) : base;
  }

  private validBase(s: JsonSchema, key: string, depth: number): fc.Arbitrary<unknown> {
    if (s.enum) return fc.constantFrom(...s.enum);
    if (s.anyOf ?? s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf)!.map((x) => this.valid(x, key, depth)));
    if (s.allOf) return this.valid(s.allOf[0]!, key, depth);
    switch (s.type) {
      case 'object': {
        if (depth > 6 || !s.properties) return fc.constant({});
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [k, v] of Object.entries(s.properties)) model[k] = this.valid(v, k, depth + 1);
        return fc.record(model, { requiredKeys: [...(s.required ?? [])].filter((k) => k in model) });
      }
      case 'array':
        return fc.array(s.items ? this.valid(s.items, key, depth + 1) : fc.anything(), {
          minLength: s.minItems ?? 0,
          maxLength: Math.min(s.maxItems ?? 4, 4),
        });
      case 'integer':
      case 'number': {
        const min = Math.max(s.minimum ?? -1_000_000, -Number.MAX_SAFE_INTEGER);
        const max = Math.min(s.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER);
        const ints = fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
        // Amounts where rooms live: a buy-in of 40 to 400 chips joins the default rooms.
        if (/buy_in|amount/.test(key) && min <= 100 && max >= 400) {
          return fc.oneof(fc.integer({ min: 40, max: 400 }), ints);
        }
        return ints;
      }
      case 'boolean':
        return fc.boolean();
      case 'string': {
        if (key === 'code') return fc.oneof(fc.constantFrom(...this.known.codes), fc.stringMatching(/^[0-9]{6}$/));
        if (key === 'name') {
          return fc.oneof(fc.constantFrom(...this.known.names), fc.stringMatching(/^[A-Za-z0-9_-]{3,24}$/));
        }
        if (s.format === 'uuid') return fc.oneof(fc.constantFrom(...this.known.roomIds), fc.uuid());
        if (s.pattern) {
          let re: RegExp;
          try {
            re = new RegExp(s.pattern);
          } catch {
            return fc.string({ maxLength: s.maxLength ?? 32 });
          }
          return fc.stringMatching(re).filter((x) => x.length <= (s.maxLength ?? 1000));
        }
        return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 32, 64) });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  /** A valid value with one thing wrong: a leaf replaced, a key dropped or added, or a type changed. */
  private mutated(schema: JsonSchema): fc.Arbitrary<unknown> {
    const wrong = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      hugeNumber,
      weird,
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constant(null),
    );
    return fc
      .tuple(
        this.valid(schema),
        fc.nat(),
        wrong,
        fc.constantFrom<'replace' | 'drop' | 'add' | 'wrap'>('replace', 'drop', 'add', 'wrap'),
      )
      .map(([value, pick, replacement, how]) => {
        const copy = structuredClone(value);
        const objects: Record<string, unknown>[] = [];
        const visit = (v: unknown): void => {
          if (v && typeof v === 'object' && !Array.isArray(v)) {
            objects.push(v as Record<string, unknown>);
            Object.values(v).forEach(visit);
          } else if (Array.isArray(v)) v.forEach(visit);
        };
        visit(copy);
        const target = objects[pick % Math.max(1, objects.length)];
        if (!target) return replacement;
        const keys = Object.keys(target);
        const k = keys[pick % Math.max(1, keys.length)];
        if (how === 'replace' && k !== undefined) target[k] = replacement;
        else if (how === 'drop' && k !== undefined) delete target[k];
        else if (how === 'wrap' && k !== undefined) target[k] = [target[k]];
        else target[`unknown_${pick % 7}`] = replacement;
        return copy;
      });
  }

  /** A request body as sent: JSON text, bytes, or nothing. */
  body(
    schema: JsonSchema | undefined,
  ): fc.Arbitrary<{ body: string | Uint8Array<ArrayBuffer> | undefined; contentType?: string }> {
    const json = (v: fc.Arbitrary<unknown>) => v.map((x) => ({ body: JSON.stringify(x) ?? 'null' }));
    const nested = fc.tuple(fc.integer({ min: 10, max: 20_000 }), fc.boolean()).map(([n, arrays]) => ({
      body: arrays ? `${'['.repeat(n)}${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`,
    }));
    const invalidJson = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom(
        '{',
        '{"code":',
        '[1,2',
        '{"a":1,}',
        "{'a':1}",
        'NaN',
        '\u0000',
        '{"a":"\\uD800"}',
        '{"__proto__":{"x":1}}',
      ),
      schema ? this.valid(schema).map((v) => (JSON.stringify(v) ?? '').slice(0, -1)) : fc.constant('{'),
    );
    const invalidUtf8 = fc
      .tuple(
        fc.constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]),
        fc.boolean(),
      )
      .map(([bad, inString]) => {
        const head = new TextEncoder().encode(inString ? '{"name":"' : '');
        const tail = new TextEncoder().encode(inString ? '","password":"password-1"}' : '');
        return { body: new Uint8Array([...head, ...bad, ...tail]) };
      });
    const rawNumbers = fc
      .tuple(schema ? this.valid(schema) : fc.constant({}), fc.constantFrom(...RAW_JSON_NUMBERS))
      .map(([v, n]) => ({
        body: (JSON.stringify(v) ?? '{}').replace(/(-?\d+(\.\d+)?([eE][+-]?\d+)?)/, n),
      }));
    const empty = fc.constantFrom({ body: '' }, { body: undefined });
    const wrongType = fc.constantFrom(
      { body: 'name=alice&password=x', contentType: 'application/x-www-form-urlencoded' },
      { body: '{"code":"123456","buy_in":100}', contentType: 'text/plain' },
      { body: '{}', contentType: 'application/json; charset=latin1' },
    );
    const oversized = fc.constant({ body: JSON.stringify({ pad: 'x'.repeat(70 * 1024) }) });
    return fc.oneof(
      { weight: 6, arbitrary: schema ? json(this.valid(schema)) : empty },
      { weight: 8, arbitrary: schema ? json(this.mutated(schema)) : json(fc.jsonValue({ maxDepth: 2 })) },
      { weight: 3, arbitrary: json(fc.jsonValue({ maxDepth: 4 })) },
      { weight: 1, arbitrary: nested },
      { weight: 2, arbitrary: invalidJson.map((b) => ({ body: b })) },
      { weight: 1, arbitrary: invalidUtf8 },
      { weight: 1, arbitrary: rawNumbers },
      { weight: 1, arbitrary: empty },
      { weight: 1, arbitrary: wrongType },
      { weight: 1, arbitrary: oversized },
    );
  }

  private pathValue(): fc.Arbitrary<string> {
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...this.known.roomIds) },
      { weight: 2, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.uuid().map((u) => u.toUpperCase()) },
      { weight: 2, arbitrary: fc.string({ maxLength: 40 }).map(encode) },
      { weight: 1, arbitrary: weird.map(encode) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_EVIL) },
    );
  }

  private queryString(params: readonly Parameter[]): fc.Arbitrary<string> {
    const names = params.map((p) => p.name);
    const value = (p: Parameter | undefined): fc.Arbitrary<string> =>
      fc.oneof(
        {
          weight: 4,
          arbitrary: p?.schema ? this.valid(p.schema, p.name).map((v) => encode(String(v))) : weird.map(encode),
        },
        { weight: 2, arbitrary: weird.map(encode) },
        { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map(encode) },
        { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_EVIL) },
      );
    const pair = fc.oneof(
      ...(names.length > 0
        ? [
            {
              weight: 4,
              arbitrary: fc.constantFrom(...params).chain((p) => value(p).map((v) => `${encode(p.name)}=${v}`)),
            },
          ]
        : []),
      {
        weight: 1,
        arbitrary: fc.tuple(fc.string({ maxLength: 12 }), value(undefined)).map(([k, v]) => `${encode(k)}=${v}`),
      },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_EVIL, '=', '&&', 'a', 'page_size', 'page_size=') },
    );
    return fc.array(pair, { maxLength: 5 }).map((pairs) => (pairs.length > 0 ? `?${pairs.join('&')}` : ''));
  }

  private auth(route: Route): fc.Arbitrary<Auth> {
    // Logging out must not end the sessions the rest of the run uses: those requests get sessions of their own.
    const signedIn: fc.Arbitrary<Auth> = /logout/.test(route.path)
      ? fc.constant({ kind: 'disposable' })
      : fc.nat({ max: 3 }).map((index) => ({ kind: 'player', index }));
    return fc.oneof(
      { weight: route.authenticated ? 12 : 2, arbitrary: signedIn },
      { weight: 2, arbitrary: fc.constant<Auth>({ kind: 'none' }) },
      {
        weight: 1,
        arbitrary: fc
          .oneof(
            fc.constantFrom(
              'felt_session=%E0%A4%A',
              'felt_session=%',
              'felt_session=',
              'felt_session="',
              'felt_session=a.b.c',
            ),
            fc.string({ maxLength: 60 }).map((s) => `felt_session=${s.replace(/[\r\n]/g, '')}`),
          )
          .map((value): Auth => ({ kind: 'cookie', value })),
      },
    );
  }

  request(route: Route): fc.Arbitrary<FuzzRequest> {
    const pathArb = fc
      .tuple(...route.pathParams.map(() => this.pathValue()))
      .map((values) => values.reduce<string>((p, v, i) => p.replace(`{${route.pathParams[i]}}`, v), route.path));
    const idempotency = fc.option(
      fc.oneof(
        fc.stringMatching(/^[\x21-\x7e]{1,100}$/),
        fc.string({ maxLength: 120 }).map((s) => s.replace(/[\r\n\0]/g, '')),
      ),
      { nil: undefined },
    );
    // Mostly clients that send no Origin (past the CSRF check); sometimes a browser's, own or foreign.
    const origin = fc.oneof(
      { weight: 12, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: fc.constant('http://localhost') },
      { weight: 1, arbitrary: fc.constantFrom('https://evil.example', 'null', 'http://localhost:1') },
    );
    const address = fc.oneof(
      { weight: 3, arbitrary: fc.constant('127.0.0.1') },
      { weight: 2, arbitrary: fc.ipV4() },
      { weight: 1, arbitrary: fc.ipV6() },
    );
    const hasBody = route.body !== undefined || route.method !== 'GET';
    return fc
      .record({
        path: pathArb,
        query: this.queryString(route.query),
        body: hasBody ? this.body(route.body) : fc.constant({ body: undefined }),
        auth: this.auth(route),
        idempotency: route.headers.some((h) => h.name === 'idempotency-key') ? idempotency : fc.constant(undefined),
        origin,
        address,
      })
      .map(({ path, query, body, auth, idempotency: key, origin: o, address: addr }) => ({
        method: route.method,
        url: `${path}${query}`,
        headers: {
          ...(body.body !== undefined ? { 'content-type': body.contentType ?? 'application/json' } : {}),
          ...(key !== undefined ? { 'idempotency-key': key } : {}),
          ...(o !== undefined ? { origin: o, host: 'localhost' } : {}),
        },
        body: body.body,
        auth,
        address: addr,
      }));
  }
}
