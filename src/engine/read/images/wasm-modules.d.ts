// A .wasm file imported as a module: wrangler (and the vitest pool) compile it at bundle time and
// hand over a WebAssembly.Module, because workerd refuses WebAssembly.compile at run time.
declare module '*/webp-decoder.wasm' {
  const wasmModule: WebAssembly.Module;
  export default wasmModule;
}

// resvg's own build (@resvg/resvg-wasm), imported the same way: src/engine/read/images/svg-rasterizer.ts.
declare module '@resvg/resvg-wasm/index_bg.wasm' {
  const wasmModule: WebAssembly.Module;
  export default wasmModule;
}
