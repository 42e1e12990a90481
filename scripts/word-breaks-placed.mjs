#!/usr/bin/env node
// `node scripts/word-breaks-placed.mjs --pairs DOCX_DIR PDF_DIR` (or `DOC.docx CAND.pdf`)
//   word-breaks.mjs (../shared/tools) with two corrections to what it counts, so that it measures
//   the candidate PDF rather than its own reach:
//   - A Word page start that the word alignment cannot place (no word within five either side of
//     the mark is aligned with the PDF: text repeated word for word, as in documents that fill
//     pages with one sentence, or table cells of bare numbers) is counted apart, "unplaced", not
//     as a page start the candidate missed: no candidate can keep it, LibreOffice's PDFs included.
//   - Word leaves w:lastRenderedPageBreak at the start of each column too (docs/engine.md "Word
//     layout facts"), so a start the candidate sets at the top of the next column of the same page
//     (the text goes up by more than 20 pt and right by more than 50 pt) is kept.
//   Everything else is word-breaks.mjs's: the body words and marks are read the same way (its
//   reader is copied: that file is a command and exports no reader), and the alignment and the
//   PDF's words are layout-score.mjs's own, imported from the shared tools (QUIRE_TOOLS, by
//   default ../shared/tools beside the project). Needs unzip and pdftotext.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const tools = process.env.QUIRE_TOOLS ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../shared/tools');
const { align, words: pdfWords } = await import(pathToFileURL(join(tools, 'layout-score.mjs')).href);

function decode(s) {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(+n))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&amp;/g, '&');
}

/** The body's words in order and the index of the first word after each Word page mark. */
function bodyWords(docx) {
  let xml;
  try {
    xml = execFileSync('unzip', ['-p', docx, 'word/document.xml'], { maxBuffer: 1 << 30 }).toString('utf8');
  } catch {
    return { words: [], starts: [] };
  }
  xml = xml.replace(/<mc:Fallback>[\s\S]*?<\/mc:Fallback>/g, '');
  const words = [];
  const starts = [];
  let pending = false;
  let cur = '';
  const flush = () => {
    for (const t of cur.normalize('NFKC').split(/\s+/)) {
      if (!t) continue;
      if (pending) {
        starts.push(words.length);
        pending = false;
      }
      words.push(t);
    }
    cur = '';
  };
  const re =
    /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:lastRenderedPageBreak\/>|<w:tab\/>|<\/w:p>|<w:br\b[^>]*\/>|<w:instrText[^>]*>[^<]*<\/w:instrText>|<w:delText[^>]*>[^<]*<\/w:delText>/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    if (m[1] !== undefined) cur += decode(m[1]);
    else if (m[0].startsWith('<w:lastRenderedPageBreak')) {
      flush();
      pending = true;
    } else if (m[0].startsWith('<w:t') || m[0] === '</w:p>' || m[0].startsWith('<w:br')) cur += ' ';
  }
  flush();
  return { words, starts: [...new Set(starts)] };
}

export function wordBreaksPlaced(docx, pdf) {
  const body = bodyWords(docx);
  if (!body.starts.length) return null;
  if (!pdf || !existsSync(pdf)) return { starts: body.starts.length, kept: 0, unplaced: 0, columns: 0 };
  const candidate = pdfWords(pdf);
  const at = new Int32Array(body.words.length).fill(-1);
  for (const [i, j] of align(
    body.words,
    candidate.words.map((w) => w.t),
  ))
    at[i] = j;
  let kept = 0;
  let starts = 0;
  let unplaced = 0;
  let columns = 0;
  let lastPage = -2;
  let lastColumn = -1;
  for (const s of body.starts) {
    let i = s;
    while (i < body.words.length && i < s + 5 && at[i] < 0) i++;
    let h = s - 1;
    while (h >= 0 && h > s - 6 && at[h] < 0) h--;
    if (i >= body.words.length || at[i] < 0 || h < 0 || at[h] < 0) {
      unplaced++;
      continue;
    }
    const word = candidate.words[at[i]];
    const before = candidate.words[at[h]];
    if (word.page === lastPage) continue; // another mark of the same break (one per table cell)
    const columnStart = before.page === word.page && word.y < before.y - 20 && word.x > before.x + 50;
    if (columnStart && at[i] === lastColumn) continue;
    starts++;
    if (before.page < word.page) {
      kept++;
      lastPage = word.page;
    } else if (columnStart) {
      kept++;
      columns++;
      lastColumn = at[i];
    }
  }
  return { starts, kept, unplaced, columns };
}

function list(dir) {
  const out = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...list(p));
    else if (n.endsWith('.docx')) out.push(p);
  }
  return out.sort();
}

const ratio = (r) => (r.starts ? r.kept / r.starts : 0).toFixed(3);
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (process.argv.includes('--pairs')) {
  const [docxDir, pdfDir] = args;
  const total = { starts: 0, kept: 0, unplaced: 0, columns: 0 };
  let documents = 0;
  for (const f of list(docxDir)) {
    const name = relative(docxDir, f)
      .replace(/\.docx$/, '')
      .split('/')
      .join('__');
    const r = wordBreaksPlaced(f, join(pdfDir, `${name}.pdf`));
    if (!r) continue;
    documents++;
    for (const k of Object.keys(total)) total[k] += r[k];
    console.log(`${name}\t${r.kept}/${r.starts}\tunplaced ${r.unplaced}\tcolumn starts kept ${r.columns}`);
  }
  console.log(
    `documents ${documents}  placed Word page starts ${total.starts}  kept ${total.kept}  ratio ${ratio(total)}  unplaced ${total.unplaced}  column starts kept ${total.columns}`,
  );
} else {
  const [docx, pdf] = args;
  if (!docx || !pdf) {
    console.error('usage: word-breaks-placed.mjs DOC.docx CAND.pdf | --pairs DOCX_DIR PDF_DIR');
    process.exit(2);
  }
  const r = wordBreaksPlaced(docx, pdf);
  console.log(
    r
      ? `placed starts ${r.starts}  kept ${r.kept}  ratio ${ratio(r)}  unplaced ${r.unplaced}`
      : 'no Word page marks in this document',
  );
}
