// Debian's Chromium, as the scripts that use it as a browser or a judge start it
// (playground-check, html-check): where it is, and the flags it runs with here.

/** The Chromium binary: $CHROMIUM, else Debian's package's. */
export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

/**
 * Headless, as root (no sandbox), with none of the background connections Chromium makes at
 * start (updates, sync, component downloads, QUIC): this machine's network refuses them, many
 * at a time, and a run must not depend on them.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
