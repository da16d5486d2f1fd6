import { describe, expect, it } from 'vitest';
import { shortcutFor, type KeyLike } from './shortcuts.js';

const key = (k: string, over: Partial<KeyLike> = {}): KeyLike => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  repeat: false,
  target: null,
  ...over,
});

describe('shortcutFor', () => {
  it('maps the letters shown on the buttons, in either case', () => {
    expect(shortcutFor(key('f'))).toBe('fold');
    expect(shortcutFor(key('C'))).toBe('check_or_call');
    expect(shortcutFor(key('r'))).toBe('wager');
    expect(shortcutFor(key('a'))).toBe('all_in');
    expect(shortcutFor(key('h'))).toBe('half_pot');
    expect(shortcutFor(key('p'))).toBe('pot');
    expect(shortcutFor(key('d'))).toBe('draw');
    expect(shortcutFor(key('x'))).toBeNull();
  });

  it('leaves typing, modifiers and auto-repeat alone', () => {
    expect(shortcutFor(key('f', { target: { tag: 'INPUT', type: 'text', allowShortcuts: false } }))).toBeNull();
    expect(shortcutFor(key('f', { target: { tag: 'TEXTAREA', type: '', allowShortcuts: false } }))).toBeNull();
    expect(shortcutFor(key('f', { target: { tag: 'SELECT', type: '', allowShortcuts: false } }))).toBeNull();
    expect(shortcutFor(key('c', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(key('f', { repeat: true }))).toBeNull();
  });

  it('works from buttons, the slider and the amount box that opts in', () => {
    expect(shortcutFor(key('f', { target: { tag: 'BUTTON', type: '', allowShortcuts: false } }))).toBe('fold');
    expect(shortcutFor(key('f', { target: { tag: 'INPUT', type: 'range', allowShortcuts: false } }))).toBe('fold');
    expect(shortcutFor(key('r', { target: { tag: 'INPUT', type: 'number', allowShortcuts: true } }))).toBe('wager');
  });
});
