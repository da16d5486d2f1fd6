import { describe, expect, it } from 'vitest';
import {
  cueForTurn,
  cueForWarning,
  FRESH_CUES,
  readMuted,
  SOUND_MUTED_KEY,
  SoundCue,
  TONES,
  writeMuted,
  type CueMemory,
} from './sound-cues.js';

describe('cueForTurn', () => {
  it('sounds once when a turn starts, and again for the next turn', () => {
    let m: CueMemory = FRESH_CUES;
    const steps: (string | null)[] = [];
    for (const token of [null, 'tok1', 'tok1', null, 'tok2', 'tok2']) {
      const step = cueForTurn(m, token, false);
      m = step.memory;
      steps.push(step.cue);
    }
    expect(steps).toEqual([null, SoundCue.TURN, null, null, SoundCue.TURN, null]);
  });

  it('does not sound again for a turn that vanished and came back (a resync mid-turn)', () => {
    const first = cueForTurn(FRESH_CUES, 'tok1', false);
    const gone = cueForTurn(first.memory, null, false);
    expect(cueForTurn(gone.memory, 'tok1', false).cue).toBeNull();
  });

  it('stays quiet for a turn a pre-action answers at once, and for that turn afterwards', () => {
    const step = cueForTurn(FRESH_CUES, 'tok1', true);
    expect(step.cue).toBeNull();
    expect(cueForTurn(step.memory, 'tok1', false).cue).toBeNull();
  });
});

describe('cueForWarning', () => {
  const warning = { hand_id: 'h1', seat: 2, expires_at: 1_764_400_030_000 };

  it('sounds for the player’s own seat, once per warning', () => {
    const step = cueForWarning(FRESH_CUES, warning, 2);
    expect(step.cue).toBe(SoundCue.WARNING);
    expect(cueForWarning(step.memory, warning, 2).cue).toBeNull();
    // The next turn's warning (a later expiry) sounds again.
    expect(cueForWarning(step.memory, { ...warning, expires_at: warning.expires_at + 40_000 }, 2).cue).toBe(
      SoundCue.WARNING,
    );
  });

  it('stays quiet for another seat’s warning and for a spectator', () => {
    expect(cueForWarning(FRESH_CUES, warning, 3)).toEqual({ memory: FRESH_CUES, cue: null });
    expect(cueForWarning(FRESH_CUES, warning, null)).toEqual({ memory: FRESH_CUES, cue: null });
  });

  it('keeps the turn and the warning apart', () => {
    const turn = cueForTurn(FRESH_CUES, 'tok1', false);
    const warned = cueForWarning(turn.memory, warning, 2);
    expect(warned.cue).toBe(SoundCue.WARNING);
    expect(cueForTurn(warned.memory, 'tok1', false).cue).toBeNull();
  });
});

describe('the mute choice', () => {
  it('is kept in storage, sound on until muted', () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
    };
    expect(readMuted(storage)).toBe(false);
    writeMuted(storage, true);
    expect(map.get(SOUND_MUTED_KEY)).toBe('1');
    expect(readMuted(storage)).toBe(true);
    writeMuted(storage, false);
    expect(readMuted(storage)).toBe(false);
  });

  it('survives storage that is missing or refuses', () => {
    const broken = {
      getItem: (): string | null => {
        throw new Error('denied');
      },
      setItem: (): void => {
        throw new Error('quota');
      },
    };
    expect(readMuted(null)).toBe(false);
    expect(readMuted(broken)).toBe(false);
    expect(() => writeMuted(broken, true)).not.toThrow();
    expect(() => writeMuted(null, true)).not.toThrow();
  });
});

describe('the tones', () => {
  it('are short, quiet and audible', () => {
    for (const cue of Object.values(SoundCue)) {
      const tones = TONES[cue];
      expect(tones.length).toBeGreaterThan(0);
      const end = Math.max(...tones.map((t) => t.start + t.duration));
      expect(end, cue).toBeLessThanOrEqual(0.5);
      for (const t of tones) {
        expect(t.gain).toBeGreaterThan(0);
        expect(t.gain).toBeLessThanOrEqual(0.3);
        expect(t.frequency).toBeGreaterThanOrEqual(200);
        expect(t.frequency).toBeLessThanOrEqual(2_000);
      }
    }
    // The two cues are told apart by ear: different notes.
    expect(TONES.turn.map((t) => t.frequency)).not.toEqual(TONES.warning.map((t) => t.frequency));
  });
});
