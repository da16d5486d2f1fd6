// Load accounts: `<prefix><n>` for n = 1..N, made ahead of a run by `npm run accounts -- --create N
// --prefix P` and logged in by the load tools, so that a run does not start with a sign-up storm.
// Their passwords follow a template (the "password scheme") both sides apply the same way. Like
// wire.ts this file imports nothing: the k6 scripts bundle it.

/** The account names the load tools use unless told otherwise: load-1, load-2, … */
export const DEFAULT_ACCOUNT_PREFIX = 'load-';

/**
 * The password template unless told otherwise: one password for every load account, fine for a
 * local or throwaway cluster, where anyone may know it. On a shared cluster pass a secret one through
 * {@link PASSWORD_SCHEME_ENV} rather than the command line (which other users of the machine can see).
 * A template with `{name}` or `{n}` gives each account its own password, at the price of one scrypt
 * hash per account when the accounts are made; one shared password is hashed once.
 */
export const DEFAULT_PASSWORD_SCHEME = 'felt-load-password';

/** Environment variable both commands read the password template from when no option gives one. */
export const PASSWORD_SCHEME_ENV = 'FELT_LOAD_PASSWORD_SCHEME';

/** The lobby's account-name rule (services/lobby schemas: nameSchema). */
const NAME_RULE = /^[A-Za-z0-9_-]{3,24}$/;
const PREFIX_RULE = /^[A-Za-z0-9_-]{1,23}$/;
/** The lobby's password length rule (credentialsSchema). */
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;
const PLACEHOLDER = /\{([^{}]*)\}/g;
const PLACEHOLDERS = new Set(['name', 'n']);

export const AccountSchemeErrorCode = { BAD_ACCOUNTS: 'bad_accounts' } as const;
export type AccountSchemeErrorCode = (typeof AccountSchemeErrorCode)[keyof typeof AccountSchemeErrorCode];

/** An account prefix, count or password template the lobby would not accept. */
export class AccountSchemeError extends Error {
  override readonly name = 'AccountSchemeError';
  readonly code = AccountSchemeErrorCode.BAD_ACCOUNTS;
  constructor(
    /** What is at fault: 'prefix' or 'password-scheme'. */
    readonly subject: 'prefix' | 'password-scheme',
    message: string,
  ) {
    super(message);
  }
}

/** The n-th load account's name (n from 1). */
export function accountName(prefix: string, n: number): string {
  return `${prefix}${n}`;
}

/**
 * The password of account `name` (the n-th) under `scheme`: `{name}` becomes the account name and
 * `{n}` its number; everything else is taken as written.
 */
export function passwordFor(scheme: string, name: string, n: number): string {
  return scheme.replace(PLACEHOLDER, (_, key: string) => (key === 'name' ? name : String(n)));
}

/**
 * Checks that accounts `first`..`last` under `prefix` have names the lobby accepts and that `scheme`
 * gives each a password the lobby accepts; throws {@link AccountSchemeError} naming the fault.
 */
export function checkAccounts(prefix: string, scheme: string, first: number, last: number): void {
  if (!PREFIX_RULE.test(prefix)) {
    throw new AccountSchemeError('prefix', `"${prefix}" must be 1..23 letters, digits, _ or -`);
  }
  for (const n of new Set([first, last])) {
    const name = accountName(prefix, n);
    if (!NAME_RULE.test(name)) {
      throw new AccountSchemeError('prefix', `account name "${name}" must be 3..24 letters, digits, _ or -`);
    }
  }
  // (replace as a scanner: k6's JavaScript runtime may lack String.prototype.matchAll)
  let unknown: string | undefined;
  scheme.replace(PLACEHOLDER, (whole, key: string) => {
    if (!PLACEHOLDERS.has(key)) unknown ??= key;
    return whole;
  });
  if (unknown !== undefined) {
    throw new AccountSchemeError('password-scheme', `unknown placeholder {${unknown}}: use {name} or {n}`);
  }
  // The names grow with n, and so do the passwords: the first and the last bound every other.
  for (const n of new Set([first, last])) {
    const length = passwordFor(scheme, accountName(prefix, n), n).length;
    if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
      throw new AccountSchemeError(
        'password-scheme',
        `gives account ${accountName(prefix, n)} a password of ${length} characters; the lobby takes ${PASSWORD_MIN}..${PASSWORD_MAX}`,
      );
    }
  }
}
