// The house rules (docs/engine.md "The house"): the tree reads as the pipeline, and imports run
// one way. `npm run check` runs `depcruise src clients` (npm run deps), and any violation fails it.
/** Layers, earliest first: a file may import its own layer and earlier ones only. */
const ENGINE_STAGES = [
  ['engine/text', 'engine/model'],
  ['engine/read'],
  ['engine/fonts'],
  ['engine/layout'],
  ['engine/pages'],
  ['engine/write'],
];
/**
 * Every folder under src/ (declarations in src/types aside): each has one front door, index.ts.
 * Read from the disk when the check runs, so a new folder is held to the rule from its first file.
 */
const { readdirSync } = require('node:fs');
const FOLDERS = (function folders(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !(dir === 'src' && entry.name === 'types'))
    .flatMap((entry) => [`${dir}/${entry.name}`, ...folders(`${dir}/${entry.name}`)]);
})('src');
const regexOf = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const later = (index) => ENGINE_STAGES.slice(index + 1).flat();
const pathOf = (folders) => `^src/(${folders.join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A file-level import circle: split the shared part out, or turn the dependency around.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-knows-no-service',
      severity: 'error',
      comment: 'The engine is a library: it knows nothing of the services over it or of HTTP.',
      from: { path: '^src/engine/' },
      to: { path: '^src/(services|api)/' },
    },
    {
      name: 'services-know-no-http',
      severity: 'error',
      comment: 'Services are called by the API; they know nothing of routes, requests or responses.',
      from: { path: '^src/services/' },
      to: { path: '^src/api/' },
    },
    {
      name: 'client-knows-no-server',
      severity: 'error',
      comment:
        "The typed clients (clients/) are packages of their own: they speak HTTP to the API, from the OpenAPI document's generated types, and import nothing of the server, its tests or its scripts.",
      from: { path: '^clients/' },
      to: { path: '^(src|test|scripts)/' },
    },
    ...ENGINE_STAGES.slice(0, -1).map((stage, index) => ({
      name: `engine-stage-order-${stage.join('+').replaceAll('engine/', '')}`,
      severity: 'error',
      comment: 'An engine stage imports only itself and earlier stages (readers → model → fonts → layout → writers).',
      from: { path: pathOf(stage) },
      to: { path: pathOf(later(index)) },
    })),
    ...FOLDERS.flatMap((folder) => [
      {
        name: `front-door:${folder.slice('src/'.length)}`,
        severity: 'error',
        comment: `From outside ${folder}/, import only its front door, ${folder}/index.ts (which says what the folder offers).`,
        from: { pathNot: `^${regexOf(folder)}/` },
        to: { path: `^${regexOf(folder)}/`, pathNot: `^${regexOf(folder)}/index\\.ts$` },
      },
      {
        name: `own-front-door:${folder.slice('src/'.length)}`,
        severity: 'error',
        comment: `Inside ${folder}/, import the file itself, not the folder's front door: the door is for outsiders (and importing it back makes a circle).`,
        from: { path: `^${regexOf(folder)}/`, pathNot: `^${regexOf(folder)}/index\\.ts$` },
        to: { path: `^${regexOf(folder)}/index\\.ts$` },
      },
    ]),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // TypeScript 7 has no compiler API yet for dependency-cruiser to parse with; swc reads the
    // same imports, type-only ones included.
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.d\\.ts$' },
  },
};
