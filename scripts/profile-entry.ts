// Bundled by scripts/profile.mjs (esbuild) and run under plain Node: the engine without HTTP, so a
// CPU profile shows the engine's own functions. Not part of the worker. The stage functions are
// for `--stages`, which runs them one by one (as src/services/convert/docx-to-pdf.ts strings them together)
// to time and profile each stage on its own.

export { createFontCache } from '../src/engine/fonts/font-cache';
export { loadFontSet } from '../src/engine/fonts/font-set';
export { collectFontRequests } from '../src/engine/layout/font-requests';
export { layoutDocument } from '../src/engine/pages/document-layout';
export { readDocx } from '../src/engine/read/ooxml/docx-reader';
export { paintPdf } from '../src/engine/write/pdf/paint-pdf';
export { DEFAULT_LIMITS } from '../src/limits';
export { convertDocxToPdf } from '../src/services/convert/docx-to-pdf';
