#!/usr/bin/env node
// Prints the RUNS table of src/engine/fonts/word-widths.ts from PDF::Builder's core-font metrics:
//   node scripts/word-font-widths.mjs PATH/TO/Perl-PDF-Builder
// (github.com/PhilterPaper/Perl-PDF-Builder; lib/PDF/Builder/Resource/Font/CoreFont/*.pm). Each
// module's 'wx' table gives widths by glyph name in thousandths of an em; its 'wxold' table names
// each glyph's code point. The no-break space and soft hyphen take the space's and hyphen's widths.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FONTS = {
  verdana: ['verdana', 'verdanabold', 'verdanaitalic', 'verdanabolditalic'],
  'trebuchet ms': ['trebuchet', 'trebuchetbold', 'trebuchetitalic', 'trebuchetbolditalic'],
};
const STYLES = ['Regular', 'Bold', 'Italic', 'BoldItalic'];
const ENTRY = /'([A-Za-z0-9._]+)'\s*=>\s*'?(\d+)'?/g;
const OLD_ENTRY = /'([A-Za-z0-9._]+)'\s*=>\s*'?(\d+)'?,?\s*#(?:\s*C\+0x[0-9A-F]+\s*#)?\s*U\+0x([0-9A-F]+)/g;

function widths(file) {
  const text = readFileSync(file, 'utf8');
  const wx = text.slice(text.indexOf("'wx' =>"), text.indexOf("'wxold' =>"));
  const old = text.slice(text.indexOf("'wxold' =>"));
  const byName = new Map([...wx.matchAll(ENTRY)].map((m) => [m[1], Number(m[2])]));
  const byCodePoint = new Map();
  for (const m of old.matchAll(OLD_ENTRY)) byCodePoint.set(Number.parseInt(m[3], 16), byName.get(m[1]) ?? Number(m[2]));
  if (byCodePoint.has(0x20) && !byCodePoint.has(0xa0)) byCodePoint.set(0xa0, byCodePoint.get(0x20));
  if (byCodePoint.has(0x2d) && !byCodePoint.has(0xad)) byCodePoint.set(0xad, byCodePoint.get(0x2d));
  return byCodePoint;
}

function runs(map) {
  const out = [];
  let run;
  for (const codePoint of [...map.keys()].sort((a, b) => a - b)) {
    if (run && codePoint === run.first + run.widths.length) run.widths.push(map.get(codePoint));
    else {
      run = { first: codePoint, widths: [map.get(codePoint)] };
      out.push(run);
    }
  }
  return out.flatMap((r) => [r.widths.length, r.first, ...r.widths]);
}

const root = join(process.argv[2] ?? '.', 'lib/PDF/Builder/Resource/Font/CoreFont');
const lines = [];
for (const [family, files] of Object.entries(FONTS)) {
  lines.push(`  '${family}': {`);
  files.forEach((file, i) => {
    lines.push(`    ${STYLES[i]}: [${runs(widths(join(root, `${file}.pm`))).join(',')}],`);
  });
  lines.push('  },');
}
console.log(lines.join('\n'));
