import { readMuted, TONES, writeMuted, type SoundCue } from '../lib/sound-cues.js';
import { Store } from './store.js';

/** What the table controller plays cues through. */
export interface SoundPlayer {
  play(cue: SoundCue): void;
}

/** The Web Audio we use: an AudioContext, or null where the browser has none. */
export type AudioFactory = () => AudioContext | null;

function browserAudio(): AudioContext | null {
  const g = globalThis as { AudioContext?: typeof AudioContext; webkitAudioContext?: typeof AudioContext };
  const Ctor = g.AudioContext ?? g.webkitAudioContext;
  return Ctor === undefined ? null : new Ctor();
}

/**
 * The page's sound cues: tones made with the Web Audio API (no audio files), and the mute choice,
 * kept in this browser. A cue is a nicety: where there is no AudioContext, or the browser refuses
 * one, playing does nothing and never throws. The context is made on the first cue, not before (a
 * browser starts it suspended until the page is used; it is resumed on each cue).
 */
export class SoundBoard implements SoundPlayer {
  readonly muted: Store<boolean>;
  private context: AudioContext | null = null;
  /** The browser has no audio for us: don't ask again on every cue. */
  private unavailable = false;

  constructor(
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null,
    private readonly audio: AudioFactory = browserAudio,
  ) {
    this.muted = new Store(readMuted(storage));
  }

  setMuted(muted: boolean): void {
    this.muted.set(muted);
    writeMuted(this.storage, muted);
  }

  toggle(): void {
    this.setMuted(!this.muted.get());
  }

  play(cue: SoundCue): void {
    if (this.muted.get()) return;
    const ctx = this.audioContext();
    if (ctx === null) return;
    try {
      if (ctx.state === 'suspended' && typeof ctx.resume === 'function') ctx.resume().catch(() => undefined);
      const at = ctx.currentTime + 0.02;
      for (const tone of TONES[cue]) {
        const start = at + tone.start;
        const end = start + tone.duration;
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = tone.wave;
        osc.frequency.setValueAtTime(tone.frequency, start);
        // A quick rise and an exponential fall: no click at either end.
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(tone.gain, start + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, end);
        osc.connect(gain);
        gain.connect(ctx.destination);
        osc.start(start);
        osc.stop(end + 0.02);
      }
    } catch {
      // A closed or broken context: the cue is skipped, the table goes on.
    }
  }

  private audioContext(): AudioContext | null {
    if (this.context !== null || this.unavailable) return this.context;
    try {
      this.context = this.audio();
    } catch {
      this.context = null;
    }
    if (this.context === null) this.unavailable = true;
    return this.context;
  }
}
