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
