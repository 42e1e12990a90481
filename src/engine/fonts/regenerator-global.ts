/**
 * @pdf-lib/fontkit's ES build was compiled with Babel's regenerator transform and expects the
 * `regeneratorRuntime` global that Babel's polyfill used to provide: the syllable state machine
 * of its Indic and Universal shapers (Devanagari, Bengali, Tamil, Khmer, Myanmar…) calls it, and
 * without it any text in those scripts threw a ReferenceError. The runtime is plain JavaScript
 * (no eval, no Node APIs); it is installed once, before the first face is shaped.
 */
import runtime from 'regenerator-runtime';

const scope = globalThis as { regeneratorRuntime?: unknown };
scope.regeneratorRuntime ??= runtime;
