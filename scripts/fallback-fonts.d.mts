/** Copies the Noto fallback faces into assets/fonts/fallback; returns files whose package is missing. */
export function prepareFallbackFonts(): string[];
export const FALLBACK_DIR: string;
