/**
 * A short two-note chime for a new message, made by the browser (no sound file to load). A browser lets a page
 * play sound only after the agent has interacted with it; until then this stays silent.
 */
let context: AudioContext | null = null;

export function playChime(): void {
  try {
    context ??= new AudioContext();
    if (context.state === 'suspended') void context.resume();
    const start = context.currentTime;
    for (const [i, hz] of [880, 1320].entries()) {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, start + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, start + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.12 + 0.2);
      tone.connect(gain).connect(context.destination);
      tone.start(start + i * 0.12);
      tone.stop(start + i * 0.12 + 0.22);
    }
  } catch {
    // No audio in this browser: the count and notifications still tell.
  }
}
