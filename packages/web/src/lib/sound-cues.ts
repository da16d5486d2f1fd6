// When the table plays a sound, and what it sounds like: a short rising chime when it becomes your
// turn, three quick pips when the table's turn warning fires for you (the clock is about to act).
// The rules are here, apart from the Web Audio code (state/sound.ts), so they are tested without a
// browser. The player's mute choice is kept in this browser's localStorage.

export const SoundCue = {
  /** It became the player's turn (a new turn token). */
  TURN: 'turn',
  /** The table's turn_warning for the player's seat: the clock acts soon. */
  WARNING: 'warning',
} as const;
export type SoundCue = (typeof SoundCue)[keyof typeof SoundCue];

/** What the page already played a cue for, so each turn and each warning sounds once. */
export interface CueMemory {
  readonly turnToken: string | null;
  readonly warning: string | null;
}

export const FRESH_CUES: CueMemory = { turnToken: null, warning: null };

export interface CueStep {
  readonly memory: CueMemory;
  readonly cue: SoundCue | null;
}

/**
 * A new view of the table: `turnToken` is the player's current turn (null when it is not their
 * turn). A turn sounds once, when its token first appears, unless a pre-action the player chose
 * answers it at once: then there is nothing for them to do.
 */
export function cueForTurn(memory: CueMemory, turnToken: string | null, answeredByPreAction: boolean): CueStep {
  // The last token is kept while there is no turn, so a turn that vanishes and comes back (a resync
  // mid-turn) does not sound twice.
  if (turnToken === null || turnToken === memory.turnToken) return { memory, cue: null };
  return { memory: { ...memory, turnToken }, cue: answeredByPreAction ? null : SoundCue.TURN };
}

export interface TurnWarning {
  readonly hand_id: string;
  readonly seat: number;
  readonly expires_at: number;
}

/** The table's turn_warning: it sounds when it is for the player's seat, once per warning. */
export function cueForWarning(memory: CueMemory, warning: TurnWarning, heroSeat: number | null): CueStep {
  if (heroSeat === null || warning.seat !== heroSeat) return { memory, cue: null };
  const key = `${warning.hand_id}:${warning.seat}:${warning.expires_at}`;
  if (key === memory.warning) return { memory, cue: null };
  return { memory: { ...memory, warning: key }, cue: SoundCue.WARNING };
}

/** Where this browser keeps the mute choice ('1' muted, '0' sound on). Sound is on until muted. */
export const SOUND_MUTED_KEY = 'felt.sound.muted';

export function readMuted(storage: Pick<Storage, 'getItem'> | null): boolean {
  try {
    return storage?.getItem(SOUND_MUTED_KEY) === '1';
  } catch {
    return false;
  }
}

export function writeMuted(storage: Pick<Storage, 'setItem'> | null, muted: boolean): void {
  try {
    storage?.setItem(SOUND_MUTED_KEY, muted ? '1' : '0');
  } catch {
    // Storage full or disabled: the choice lasts for this page.
  }
}

/** One note: an oscillator from `start` for `duration` seconds (after the cue begins). */
export interface Tone {
  readonly wave: 'sine' | 'triangle' | 'square';
  readonly frequency: number;
  readonly start: number;
  readonly duration: number;
  /** Peak gain, kept low: a cue, not an alarm. */
  readonly gain: number;
}

export const TONES: Readonly<Record<SoundCue, readonly Tone[]>> = {
  [SoundCue.TURN]: [
    { wave: 'sine', frequency: 660, start: 0, duration: 0.1, gain: 0.15 },
    { wave: 'sine', frequency: 880, start: 0.12, duration: 0.14, gain: 0.15 },
  ],
  [SoundCue.WARNING]: [
    { wave: 'triangle', frequency: 990, start: 0, duration: 0.07, gain: 0.2 },
    { wave: 'triangle', frequency: 990, start: 0.14, duration: 0.07, gain: 0.2 },
    { wave: 'triangle', frequency: 990, start: 0.28, duration: 0.07, gain: 0.2 },
  ],
};
