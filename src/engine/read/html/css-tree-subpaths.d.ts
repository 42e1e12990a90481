// css-tree's subpath entry points (package.json "exports"): only the parser and generator are
// bundled, not the lexer and its syntax data. @types/css-tree describes the root module only.
declare module 'css-tree/parser' {
  import type { parse } from 'css-tree';

  const parser: typeof parse;
  export default parser;
}
declare module 'css-tree/generator' {
  import type { generate } from 'css-tree';

  const generator: typeof generate;
  export default generator;
}
