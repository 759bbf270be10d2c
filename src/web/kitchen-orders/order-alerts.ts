/** A short two-note chime, made on the spot (no sound file to load). Browsers allow it after a click. */
export function playChime(): void {
  const AudioCtx = window.AudioContext as typeof AudioContext | undefined;
  if (!AudioCtx) return;
  const audio = new AudioCtx();
  const gain = audio.createGain();
  gain.connect(audio.destination);
  gain.gain.setValueAtTime(0.001, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.3, audio.currentTime + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.6);
  [880, 1320].forEach((frequency, i) => {
    const tone = audio.createOscillator();
    tone.frequency.value = frequency;
    tone.connect(gain);
    tone.start(audio.currentTime + i * 0.15);
    tone.stop(audio.currentTime + 0.6);
  });
  setTimeout(() => void audio.close(), 1000);
}

/** A system notification, when the cook has allowed them for this site. */
export function notifySystem(title: string, body: string): void {
  if (typeof Notification === 'function' && Notification.permission === 'granted')
    new Notification(title, { body });
}
