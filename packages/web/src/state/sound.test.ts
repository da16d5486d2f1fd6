// The sound board against a recording stand-in for the Web Audio API: what it schedules for each
// cue, nothing when muted, and never an exception where a browser has no AudioContext or refuses one.
import { describe, expect, it } from 'vitest';
import { SOUND_MUTED_KEY, SoundCue, TONES } from '../lib/sound-cues.js';
import { SoundBoard } from './sound.js';

interface Scheduled {
  wave: string;
  frequency: number;
  start: number;
  stop: number;
  peak: number;
}

/** An AudioContext that records every oscillator it is asked to play. */
function recordingAudio(state: 'running' | 'suspended' = 'running') {
  const scheduled: Scheduled[] = [];
  let resumed = 0;
  let made = 0;
  const ctx = {
    currentTime: 5,
    state,
    destination: {},
    resume: () => {
      resumed++;
      return Promise.resolve();
    },
    createOscillator() {
      const s: Scheduled = { wave: '', frequency: 0, start: -1, stop: -1, peak: 0 };
      scheduled.push(s);
      return {
        set type(w: string) {
          s.wave = w;
        },
        frequency: { setValueAtTime: (v: number) => void (s.frequency = v) },
        connect: () => undefined,
        start: (t: number) => void (s.start = t),
        stop: (t: number) => void (s.stop = t),
      };
    },
    createGain() {
      const g = { peak: 0 };
      return {
        gain: {
          setValueAtTime: () => undefined,
          exponentialRampToValueAtTime: (v: number) => void (g.peak = Math.max(g.peak, v)),
        },
        connect: () => {
          const last = scheduled.at(-1);
          if (last) last.peak = g.peak;
        },
      };
    },
  };
  return {
    factory: () => {
      made++;
      return ctx as unknown as AudioContext;
    },
    scheduled,
    resumed: () => resumed,
    made: () => made,
  };
}

function memoryStorage() {
  const map = new Map<string, string>();
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
}

describe('SoundBoard', () => {
  it('plays each cue as its tones, in order, from the context’s clock', () => {
    const audio = recordingAudio();
    const board = new SoundBoard(null, audio.factory);
    board.play(SoundCue.TURN);
    expect(audio.scheduled.map((s) => [s.wave, s.frequency])).toEqual(TONES.turn.map((t) => [t.wave, t.frequency]));
    for (const [i, s] of audio.scheduled.entries()) {
      const tone = TONES.turn[i]!;
      expect(s.start).toBeCloseTo(5.02 + tone.start);
      expect(s.stop).toBeGreaterThan(s.start + tone.duration);
      expect(s.peak).toBe(tone.gain);
    }
    board.play(SoundCue.WARNING);
    expect(audio.scheduled.slice(TONES.turn.length).map((s) => s.frequency)).toEqual(
      TONES.warning.map((t) => t.frequency),
    );
    // One context for the page.
    expect(audio.made()).toBe(1);
  });

  it('resumes a context the browser started suspended', () => {
    const audio = recordingAudio('suspended');
    new SoundBoard(null, audio.factory).play(SoundCue.TURN);
    expect(audio.resumed()).toBe(1);
  });

  it('plays nothing while muted, and keeps the choice in storage', () => {
    const audio = recordingAudio();
    const storage = memoryStorage();
    const board = new SoundBoard(storage, audio.factory);
    expect(board.muted.get()).toBe(false);
    board.toggle();
    expect(board.muted.get()).toBe(true);
    expect(storage.map.get(SOUND_MUTED_KEY)).toBe('1');
    board.play(SoundCue.TURN);
    expect(audio.scheduled).toEqual([]);
    expect(audio.made()).toBe(0);
    // A new page reads the choice back.
    expect(new SoundBoard(storage, audio.factory).muted.get()).toBe(true);
    board.toggle();
    board.play(SoundCue.TURN);
    expect(audio.scheduled).toHaveLength(TONES.turn.length);
  });

  it('never throws without Web Audio: none in this environment, a refused context, a broken one', () => {
    expect(typeof (globalThis as { AudioContext?: unknown }).AudioContext).toBe('undefined');
    expect(() => new SoundBoard(null).play(SoundCue.TURN)).not.toThrow();
    let asked = 0;
    const refusing = new SoundBoard(null, () => {
      asked++;
      throw new Error('NotAllowedError');
    });
    expect(() => refusing.play(SoundCue.TURN)).not.toThrow();
    expect(() => refusing.play(SoundCue.WARNING)).not.toThrow();
    expect(asked).toBe(1);
    const broken = new SoundBoard(null, () => ({ currentTime: 0, state: 'closed' }) as unknown as AudioContext);
    expect(() => broken.play(SoundCue.WARNING)).not.toThrow();
  });
});
