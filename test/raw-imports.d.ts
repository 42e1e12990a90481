// Vite's `?raw` imports: a file's text as the default export.
declare module '*?raw' {
  const text: string;
  export default text;
}
