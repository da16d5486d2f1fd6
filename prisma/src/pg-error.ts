/**
 * What Postgres said, dug out of the layers Prisma and its driver adapter wrap around it: a
 * PrismaClientKnownRequestError keeps it in `meta.driverAdapterError.cause`, a DriverAdapterError
 * (thrown for deferred-constraint failures at COMMIT) in `cause`, and pg's own DatabaseError on
 * itself.
 */
export interface PgErrorInfo {
  /** SQLSTATE, e.g. 23505 or FL002. */
  readonly sqlState: string | undefined;
  /** The adapter's classification, e.g. UniqueConstraintViolation, TransactionWriteConflict. */
  readonly kind: string | undefined;
  /** Constraint or index name when Postgres named one. */
  readonly constraint: string | undefined;
  /** Prisma's error code (P2002, P2034, ...). */
  readonly prismaCode: string | undefined;
}

type Bag = Record<string, unknown>;

function isBag(x: unknown): x is Bag {
  return typeof x === 'object' && x !== null;
}

function str(x: unknown): string | undefined {
  return typeof x === 'string' ? x : undefined;
}

export function pgErrorInfo(err: unknown): PgErrorInfo {
  let sqlState: string | undefined;
  let kind: string | undefined;
  let constraint: string | undefined;
  let prismaCode: string | undefined;
  const seen = new Set<unknown>();
  const stack: unknown[] = [err];
  while (stack.length > 0) {
    const e = stack.pop();
    if (!isBag(e) || seen.has(e)) continue;
    seen.add(e);
    const code = str(e.code);
    if (code && /^P\d{4}$/.test(code)) prismaCode ??= code;
    else if (code && /^[0-9A-Z]{5}$/.test(code)) sqlState ??= code;
    sqlState ??= str(e.originalCode);
    kind ??= str(e.kind);
    constraint ??= str(e.constraint);
    if (isBag(e.constraint)) constraint ??= str(e.constraint.index) ?? str(e.constraint.name);
    if (isBag(e.meta)) stack.push(e.meta.driverAdapterError);
    stack.push(e.cause);
  }
  return { sqlState, kind, constraint, prismaCode };
}

/** Serialization failures and deadlocks: the whole transaction can simply run again. */
export function isRetryableTransactionError(err: unknown): boolean {
  const info = pgErrorInfo(err);
  return (
    info.sqlState === '40001' ||
    info.sqlState === '40P01' ||
    info.kind === 'TransactionWriteConflict' ||
    info.prismaCode === 'P2034'
  );
}

/** A unique violation, optionally of one named constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const info = pgErrorInfo(err);
  const unique = info.sqlState === '23505' || info.kind === 'UniqueConstraintViolation' || info.prismaCode === 'P2002';
  return unique && (constraint === undefined || info.constraint === constraint);
}

/** SQLSTATEs that mean the server went away or cannot take the connection now. */
const UNAVAILABLE_SQLSTATES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
/** Prisma's codes for an unreachable server, a timed-out or closed connection, and an exhausted pool. */
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** The driver adapter's classifications of the same. */
const UNAVAILABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** Node's socket errors on the way to the server. */
const UNAVAILABLE_SYSCALL_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);

/**
 * Whether `err` says Postgres could not be reached or dropped the connection (down, restarting,
 * failing over, out of connections), as opposed to refusing the statement: the request can be
 * answered "unavailable, try again" (HTTP 503) and retried later without having changed anything
 * it would not change again.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const info = pgErrorInfo(err);
  if (info.sqlState && UNAVAILABLE_SQLSTATES.has(info.sqlState)) return true;
  if (info.prismaCode && UNAVAILABLE_PRISMA_CODES.has(info.prismaCode)) return true;
  if (info.kind && UNAVAILABLE_KINDS.has(info.kind)) return true;
  const seen = new Set<unknown>();
  for (let e: unknown = err; isBag(e) && !seen.has(e); e = e.cause) {
    seen.add(e);
    const code = str(e.code);
    if (code && UNAVAILABLE_SYSCALL_CODES.has(code)) return true;
    const message = str(e.message) ?? '';
    // pg's own words when the server goes away under a query or before a connection is made.
    if (
      /Connection terminated|connection timeout|Can't reach database server|server closed the connection|connection error and is not queryable|was closed and is not queryable/i.test(
        message,
      )
    )
      return true;
  }
  return false;
}
