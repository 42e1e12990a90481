// Bundled by scripts/profile.mjs (esbuild) and run under plain Node: the engine without HTTP, so a
// CPU profile shows the engine's own functions. Not part of the worker.
import { convertDocxToPdf } from '../src/convert/docx-to-pdf';
import { createFontCache } from '../src/fonts/font-cache';

export { convertDocxToPdf, createFontCache };
