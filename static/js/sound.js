// The table's sounds, synthesised with the Web Audio API (no sound files): the cue's strike,
// ball on ball, cushion (and the pocket's jaws), the pocket, and a chime for "your turn" and
// "your decision". On by default and quiet (VOLUME), at the table only; the turn bar's speaker
// (settings.js) switches them off in one tap. The browser starts audio at the first click.
//
// `soundsOf` reads a stroke's contact events and trajectories (docs/physics.md, "JSON form")
// and says what sounds when and how loud: pure (tests/sound.test.js). `Sounds` plays them.

import { Motion } from "./trajectory.js";

// Speeds (mm/s) at which a sound is at its loudest; slower is softer.
const LOUD_CONTACT = 3000;
const LOUD_CUSHION = 3000;
const LOUD_POCKET = 2500;

// The whole table's loudness: a quiet room, not a game arcade.
export const VOLUME = 0.45;

const clamp = (x) => Math.max(0, Math.min(1, x));

/** A contact's pitch, as a factor of its kind's: a hard knock rings higher than a kiss. */
export const pitchOf = (strength) => 0.8 + 0.4 * strength;

/** The sounds of a stroke: [{t (s), kind: strike | ball | cushion | pocket, strength 0..1,
 * pitch (a factor: pitchOf)}], louder and higher the faster the balls meet.
 * `speed` is the stroke's cue speed and `maxSpeed` the hardest stroke (m/s). */
export function soundsOf(shot, speed, maxSpeed) {
  const out = [{ t: 0, kind: "strike", strength: clamp(speed / maxSpeed) }];
  if (!shot || !shot.events) return out;
  const motion = new Motion(shot);
  for (const [t, kind, a, b] of shot.events) {
    const va = motion.velocity(a, t);
    if (kind === "ball_ball") {
      const vb = motion.velocity(b, t);
      const closing = Math.hypot(va[0] - vb[0], va[1] - vb[1]);
      out.push({ t, kind: "ball", strength: clamp(closing / LOUD_CONTACT) });
    } else if (kind === "ball_cushion" || kind === "ball_jaw") {
      out.push({ t, kind: "cushion", strength: clamp(Math.hypot(...va) / LOUD_CUSHION) });
    } else if (kind === "pocket") {
      out.push({ t, kind: "pocket", strength: clamp(0.4 + Math.hypot(...va) / LOUD_POCKET) });
    }
  }
  return out.filter((s) => s.strength > 0.01).map((s) => ({ ...s, pitch: pitchOf(s.strength) }));
}

export class Sounds {
  constructor() {
    this.ctx = null;
    this.on = false;
    this.played = []; // kinds scheduled, for the browser tests
  }

  /** Turn the sounds on or off (on: from a click, so the browser lets audio start). */
  enable(on) {
    this.on = Boolean(on);
    if (!this.on) return;
    try {
      const Audio = window.AudioContext || window.webkitAudioContext;
      this.ctx = this.ctx || new Audio();
      if (this.ctx.state === "suspended") this.ctx.resume();
    } catch {
      this.ctx = null; // no audio here
    }
  }

  /** Play a stroke's sounds from now, its time running `rate` times real time. */
  stroke(sounds, rate = 1) {
    if (!this.on || !this.ctx) return;
    const start = this.ctx.currentTime + 0.02;
    for (const s of sounds) {
      this.played.push(s.kind);
      const at = start + s.t / rate;
      const k = s.pitch || 1;
      if (s.kind === "strike") this._click(at, s.strength, 900 * k, 0.05, 0.6);
      else if (s.kind === "ball") this._click(at, s.strength, 2400 * k, 0.035, 1);
      else if (s.kind === "cushion") this._thud(at, s.strength, 180 * k, 0.09);
      else this._thud(at, s.strength, 90 * k, 0.22);
    }
  }

  /** Two notes: "turn" rising, "decision" falling. */
  chime(kind) {
    if (!this.on || !this.ctx) return;
    this.played.push(kind);
    const now = this.ctx.currentTime + 0.02;
    const notes = kind === "decision" ? [880, 660] : [660, 880];
    notes.forEach((f, i) => this._tone(now + i * 0.16, f, 0.22, 0.12));
  }

  _envelope(at, peak, length) {
    const gain = this.ctx.createGain();
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, peak * VOLUME), at + 0.003);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    gain.connect(this.ctx.destination);
    return gain;
  }

  _noise(at, length) {
    const ctx = this.ctx;
    const frames = Math.ceil(ctx.sampleRate * length);
    const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < frames; i++) data[i] = Math.random() * 2 - 1;
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.start(at);
    return source;
  }

  /** A hard, short contact: filtered noise and a ringing tone (phenolic balls, the tip). */
  _click(at, strength, pitch, length, body) {
    const out = this._envelope(at, 0.5 * strength, length);
    const band = this.ctx.createBiquadFilter();
    band.type = "bandpass";
    band.frequency.value = pitch;
    band.Q.value = 3;
    this._noise(at, length).connect(band).connect(out);
    this._tone(at, pitch * 0.75, length * 1.6, 0.25 * strength * body);
  }

  /** A soft, low contact: the cushion's rubber, the ball dropping into the pocket. */
  _thud(at, strength, pitch, length) {
    const out = this._envelope(at, 0.6 * strength, length);
    const low = this.ctx.createBiquadFilter();
    low.type = "lowpass";
    low.frequency.value = pitch * 4;
    this._noise(at, length).connect(low).connect(out);
    const tone = this.ctx.createOscillator();
    tone.frequency.setValueAtTime(pitch * 1.5, at);
    tone.frequency.exponentialRampToValueAtTime(pitch, at + length);
    tone.connect(this._envelope(at, 0.5 * strength, length));
    tone.start(at);
    tone.stop(at + length + 0.02);
  }

  _tone(at, frequency, length, peak) {
    const tone = this.ctx.createOscillator();
    tone.frequency.value = frequency;
    tone.connect(this._envelope(at, peak, length));
    tone.start(at);
    tone.stop(at + length + 0.02);
  }
}
