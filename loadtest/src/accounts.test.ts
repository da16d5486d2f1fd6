import { describe, expect, it } from 'vitest';
import { AccountSchemeError, DEFAULT_PASSWORD_SCHEME, accountName, checkAccounts, passwordFor } from './accounts.js';

const refusal = (fn: () => void): AccountSchemeError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AccountSchemeError) return err;
    throw err;
  }
  throw new Error('accepted');
};

describe('load accounts', () => {
  it('names accounts <prefix><n> and derives each password from the template', () => {
    expect(accountName('load-', 1)).toBe('load-1');
    expect(accountName('load-', 240)).toBe('load-240');
    expect(passwordFor(DEFAULT_PASSWORD_SCHEME, 'load-7', 7)).toBe('felt-load-password');
    expect(passwordFor('{name}-felt-load', 'load-7', 7)).toBe('load-7-felt-load');
    expect(passwordFor('s3cret:{n}:{name}:{n}', 'load-7', 7)).toBe('s3cret:7:load-7:7');
    // A template without placeholders gives every account the same password.
    expect(passwordFor('one password for all', 'load-7', 7)).toBe('one password for all');
  });

  it('accepts names and passwords the lobby accepts', () => {
    expect(() => checkAccounts('load-', DEFAULT_PASSWORD_SCHEME, 1, 100_000)).not.toThrow();
    expect(() => checkAccounts('x', '{name}{name}{n}{n}', 10, 99)).not.toThrow();
  });

  it.each([
    ['bad prefix', '{name}-felt-load', 1, 3, 'prefix', /letters, digits/],
    ['', '{name}-felt-load', 1, 3, 'prefix', /letters, digits/],
    ['a', '{name}-felt-load', 1, 3, 'prefix', /"a1" must be 3\.\.24/],
    ['a-long-prefix-for-names-', '{name}-felt-load', 1, 3, 'prefix', /1\.\.23/],
    ['load-accounts-prefix-', '{name}-felt-load', 1, 1000, 'prefix', /"load-accounts-prefix-1000" must be 3\.\.24/],
    ['load-', '{name}', 1, 9, 'password-scheme', /load-1 a password of 6 characters/],
    ['load-', 'p{name}', 1, 1000, 'password-scheme', /load-1 a password of 7 characters/],
    ['load-', `${'x'.repeat(120)}{name}`, 1, 1000, 'password-scheme', /load-1000 a password of 129/],
    ['load-', '{user}-felt-load', 1, 3, 'password-scheme', /unknown placeholder \{user\}/],
  ] as const)('refuses prefix %j with template %j (%i..%i)', (prefix, scheme, first, last, subject, message) => {
    const err = refusal(() => checkAccounts(prefix, scheme, first, last));
    expect(err.code).toBe('bad_accounts');
    expect(err.subject).toBe(subject);
    expect(err.message).toMatch(message);
  });
});
