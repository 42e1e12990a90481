// Bundled by scripts/profile.mjs (esbuild) and run under plain Node: the engine without HTTP, so a
// CPU profile shows the engine's own functions. Not part of the worker. The stage functions are
// for `--stages`, which runs them one by one (as src/convert/docx-to-pdf.ts strings them together)
// to time and profile each stage on its own.
export { convertDocxToPdf } from '../src/convert/docx-to-pdf';
export { createFontCache } from '../src/fonts/font-cache';
export { loadFontSet } from '../src/fonts/font-set';
export { layoutDocument } from '../src/layout/document-layout';
export { collectFontRequests } from '../src/layout/font-requests';
export { DEFAULT_LIMITS } from '../src/limits';
export { readDocx } from '../src/ooxml/docx-reader';
export { paintPdf } from '../src/pdf/paint-pdf';
