// Keyboard shortcuts of the action bar. Single letters, shown on the buttons themselves, and never
// taken while the player types in a text field (the bet amount box is the one exception: letters do
// not go into it anyway).

export const ShortcutCommand = {
  FOLD: 'fold',
  CHECK_OR_CALL: 'check_or_call',
  /** Bet, raise or complete to the amount in the box. */
  WAGER: 'wager',
  ALL_IN: 'all_in',
  HALF_POT: 'half_pot',
  POT: 'pot',
  BRING_IN: 'bring_in',
  /** Draw games: throw away the selected cards (none selected: stand pat). */
  DRAW: 'draw',
} as const;
export type ShortcutCommand = (typeof ShortcutCommand)[keyof typeof ShortcutCommand];

export const SHORTCUT_KEYS: Readonly<Record<ShortcutCommand, string>> = {
  fold: 'F',
  check_or_call: 'C',
  wager: 'R',
  all_in: 'A',
  half_pot: 'H',
  pot: 'P',
  bring_in: 'B',
  draw: 'D',
};

const BY_KEY = new Map<string, ShortcutCommand>(
  (Object.entries(SHORTCUT_KEYS) as [ShortcutCommand, string][]).map(([cmd, key]) => [key.toLowerCase(), cmd]),
);

export interface KeyLike {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  /** The focused element's tag and type, and whether it opts in to shortcuts. */
  readonly target: { readonly tag: string; readonly type: string; readonly allowShortcuts: boolean } | null;
  readonly repeat: boolean;
}

/** The command a key press means, or null to let the page have it. */
export function shortcutFor(e: KeyLike): ShortcutCommand | null {
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return null;
  const t = e.target;
  if (t !== null && !t.allowShortcuts) {
    const tag = t.tag.toLowerCase();
    if (tag === 'textarea' || tag === 'select') return null;
    if (tag === 'input' && !['checkbox', 'radio', 'range', 'button', 'submit'].includes(t.type.toLowerCase())) {
      return null;
    }
    if (t.tag.toLowerCase() === 'dialog') return null;
  }
  return BY_KEY.get(e.key.toLowerCase()) ?? null;
}
