// A .wasm file imported as a module: wrangler (and the vitest pool) compile it at bundle time and
// hand over a WebAssembly.Module, because workerd refuses WebAssembly.compile at run time.
declare module '*/webp-decoder.wasm' {
  const wasmModule: WebAssembly.Module;
  export default wasmModule;
}
