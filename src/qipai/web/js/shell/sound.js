// Sound effects made in the browser (WebAudio oscillators and filtered noise: no sound files), with a mute
// switch remembered per user (prefs.js).  play(name) never throws and never waits.
import { pref, setPref } from "./prefs.js";

/** Names played (also while muted, marked so), for tests and debugging. */
export const soundLog = [];

let ac = null;
let noiseBuf = null;
// a browser lets a page start audio only after the user did something on it (a click, a key): an AudioContext made
// or resumed before that stays suspended, and Chromium logs a warning for each try (a reload in the middle of a
// deal once logged nine).  Until the first gesture every effect is silent and no context is made.
const activation = navigator.userActivation || null;
let gestured = false; // (a browser without navigator.userActivation: any pointer or key event counts)
const mayStart = () => (activation ? activation.hasBeenActive : gestured);

function audio() {
  if (!mayStart()) return null;
  if (!ac) {
    const C = window.AudioContext || window.webkitAudioContext;
    if (!C) return null;
    try {
      ac = new C();
    } catch {
      return null;
    }
  }
  if (ac.state === "suspended") ac.resume().catch(() => {});
  return ac;
}

// make (or wake) the context on the first gesture (a touch counts when it ends, a click or a key at once)
const GESTURES = ["pointerdown", "pointerup", "touchend", "click", "keydown"];
function wake() {
  gestured = true;
  if (!mayStart()) return;
  for (const ev of GESTURES) window.removeEventListener(ev, wake, true);
  if (!isMuted()) audio();
}
for (const ev of GESTURES) window.addEventListener(ev, wake, true);

export function isMuted() {
  return !!pref("mute", false);
}

export function setMuted(m) {
  setPref("mute", !!m);
}

function tone(a, { f = 440, to = null, t = 0, d = 0.15, type = "sine", g = 0.18, attack = 0.005 } = {}) {
  const t0 = a.currentTime + t;
  const o = a.createOscillator();
  const v = a.createGain();
  o.type = type;
  o.frequency.setValueAtTime(f, t0);
  if (to) o.frequency.exponentialRampToValueAtTime(to, t0 + d);
  v.gain.setValueAtTime(0.0001, t0);
  v.gain.exponentialRampToValueAtTime(g, t0 + attack);
  v.gain.exponentialRampToValueAtTime(0.0001, t0 + d);
  o.connect(v).connect(a.destination);
  o.start(t0);
  o.stop(t0 + d + 0.05);
}

function noise(a, { t = 0, d = 0.08, g = 0.25, f = 2000, to = null, q = 1, type = "bandpass" } = {}) {
  if (!noiseBuf) {
    noiseBuf = a.createBuffer(1, a.sampleRate, a.sampleRate);
    const data = noiseBuf.getChannelData(0);
    let seed = 12345;
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      data[i] = (seed / 0x3fffffff) - 1;
    }
  }
  const t0 = a.currentTime + t;
  const src = a.createBufferSource();
  src.buffer = noiseBuf;
  const filt = a.createBiquadFilter();
  filt.type = type;
  filt.Q.value = q;
  filt.frequency.setValueAtTime(f, t0);
  if (to) filt.frequency.exponentialRampToValueAtTime(to, t0 + d);
  const v = a.createGain();
  v.gain.setValueAtTime(g, t0);
  v.gain.exponentialRampToValueAtTime(0.0001, t0 + d);
  src.connect(filt).connect(v).connect(a.destination);
  src.start(t0);
  src.stop(t0 + d + 0.05);
}

const SOUNDS = {
  deal: (a) => { for (let i = 0; i < 6; i++) noise(a, { t: i * 0.05, d: 0.035, g: 0.12, f: 3200, q: 2 }); },
  play: (a) => { noise(a, { d: 0.07, g: 0.35, f: 1800, q: 0.8 }); tone(a, { f: 180, to: 90, d: 0.08, g: 0.1 }); },
  pass: (a) => tone(a, { f: 330, to: 220, d: 0.18, type: "triangle", g: 0.12 }),
  turn: (a) => { tone(a, { f: 880, d: 0.14, g: 0.12 }); tone(a, { f: 1320, t: 0.09, d: 0.2, g: 0.1 }); },
  tick: (a) => tone(a, { f: 1500, d: 0.04, type: "square", g: 0.04 }),
  bomb: (a) => { noise(a, { d: 0.7, g: 0.7, f: 600, to: 60, type: "lowpass" }); tone(a, { f: 90, to: 30, d: 0.6, g: 0.4 }); },
  rocket: (a) => { tone(a, { f: 180, to: 1800, d: 0.55, type: "sawtooth", g: 0.12 }); noise(a, { t: 0.45, d: 0.6, g: 0.6, f: 900, to: 80, type: "lowpass" }); },
  plane: (a) => { noise(a, { d: 0.9, g: 0.3, f: 300, to: 3500, q: 3 }); tone(a, { f: 220, to: 440, d: 0.8, type: "triangle", g: 0.06 }); },
  straight: (a) => { [523, 587, 659, 698, 784].forEach((f, i) => tone(a, { f, t: i * 0.045, d: 0.09, type: "triangle", g: 0.08 })); },
  spring: (a) => { [523, 659, 784, 1047, 1319].forEach((f, i) => tone(a, { f, t: i * 0.09, d: 0.3, g: 0.12 })); },
  alarm1: (a) => { tone(a, { f: 988, d: 0.12, type: "square", g: 0.06 }); tone(a, { f: 988, t: 0.18, d: 0.12, type: "square", g: 0.06 }); },
  alarm2: (a) => { tone(a, { f: 784, d: 0.12, type: "square", g: 0.06 }); tone(a, { f: 988, t: 0.16, d: 0.16, type: "square", g: 0.06 }); },
  win: (a) => { [523, 659, 784, 1047].forEach((f, i) => tone(a, { f, t: i * 0.12, d: 0.35, type: "triangle", g: 0.14 })); },
  lose: (a) => { [392, 349, 311, 262].forEach((f, i) => tone(a, { f, t: i * 0.16, d: 0.4, type: "triangle", g: 0.12 })); },
  chat: (a) => tone(a, { f: 660, to: 990, d: 0.1, g: 0.08 }),
  ready: (a) => tone(a, { f: 740, d: 0.12, g: 0.1 }),
};

export const SOUND_NAMES = Object.keys(SOUNDS);

/** Play the effect ``name`` unless the player muted sound. */
export function play(name) {
  const muted = isMuted();
  soundLog.push({ name, muted });
  if (soundLog.length > 200) soundLog.splice(0, 100);
  if (muted || !SOUNDS[name]) return;
  const a = audio();
  if (!a) return;
  try {
    SOUNDS[name](a);
  } catch {
    /* an audio device that went away: stay silent */
  }
}
