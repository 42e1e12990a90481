declare module 'regenerator-runtime' {
  const runtime: object;
  export default runtime;
}
