/**
 * Numbers as a chart shows them, by the spreadsheet format code of their data or axis (ECMA-376
 * Part 1 §18.8.31 numFmt): General, fixed decimals, thousands separators, percentages and literal
 * prefixes/suffixes ("$#,##0.00", "0.0%", "#,##0 \"kg\""). Dates and fractions print as General.
 */

/** General: up to 10 significant digits, no trailing zeros (what Excel and Word's charts print). */
export function formatGeneral(value: number): string {
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1e11 || abs < 1e-9) return value.toExponential(2).replace('e+', 'E+').replace('e-', 'E-');
  return String(Number(value.toPrecision(10)));
}

export function formatSpreadsheetNumber(value: number, code: string): string {
  const sections = splitSections(code || 'General');
  let section = sections[0] ?? 'General';
  let shown = value;
  if (value < 0 && sections[1] !== undefined) {
    section = sections[1];
    shown = -value;
  }
  // Colours, conditions and locale tags ([Red], [$-409], [$€-x]) print nothing but currency symbols.
  section = section.replace(/\[\$([^\]-]*)[^\]]*\]/g, '"$1"').replace(/\[[^\]]*\]/g, '');
  if (/^\s*general\s*$/i.test(section) || section.trim() === '') return formatGeneral(shown);
  const unquoted = section.replace(/"[^"]*"/g, '').replace(/\\./g, '');
  if (/[ymdhs]/i.test(unquoted) || unquoted.includes('/')) return formatGeneral(shown);
  const first = firstPlaceholder(section);
  if (first === -1) return literal(section);
  let last = first;
  for (let i = first; i < section.length; i++) if (/[0#?.,]/.test(section[i] as string)) last = i;
  const pattern = section.slice(first, last + 1);
  const percent = (section.match(/%/g) ?? []).length;
  let number = shown * 100 ** percent;
  const dot = pattern.indexOf('.');
  const integerPart = dot === -1 ? pattern : pattern.slice(0, dot);
  const decimals = dot === -1 ? 0 : (pattern.slice(dot + 1).match(/[0#?]/g) ?? []).length;
  // Trailing commas scale by thousands ("0,," millions).
  const scale = /,+$/.exec(integerPart)?.[0].length ?? 0;
  number /= 1000 ** scale;
  const grouping = integerPart.replace(/,+$/, '').includes(',');
  let text = Math.abs(number).toFixed(decimals);
  if (dot !== -1) {
    // Optional decimals (#) drop trailing zeros beyond the required ones (0).
    const required = (pattern.slice(dot + 1).match(/0/g) ?? []).length;
    let [whole, fraction = ''] = text.split('.') as [string, string?];
    while (fraction.length > required && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
    text = fraction ? `${whole}.${fraction}` : whole;
  }
  if (grouping) {
    const [whole, fraction] = text.split('.') as [string, string?];
    text = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (fraction !== undefined ? `.${fraction}` : '');
  }
  if (!integerPart.includes('0') && text.startsWith('0.')) text = text.slice(1);
  const sign = number < 0 && sections[1] === undefined && Number(text.replace(/[^0-9.]/g, '')) !== 0 ? '-' : '';
  return `${literal(section.slice(0, first))}${sign}${text}${literal(section.slice(last + 1))}`;
}

function splitSections(code: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i] as string;
    if (ch === '"') quoted = !quoted;
    if (ch === '\\' && !quoted) {
      current += ch + (code[i + 1] ?? '');
      i++;
      continue;
    }
    if (ch === ';' && !quoted) {
      out.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  out.push(current);
  return out;
}

function firstPlaceholder(section: string): number {
  let quoted = false;
  for (let i = 0; i < section.length; i++) {
    const ch = section[i] as string;
    if (ch === '"') quoted = !quoted;
    else if (ch === '\\') i++;
    else if (!quoted && (ch === '0' || ch === '#' || ch === '?')) return i;
  }
  return -1;
}

/** The literal text of a format fragment: quoted strings, escaped characters, spacing removed. */
function literal(fragment: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < fragment.length; i++) {
    const ch = fragment[i] as string;
    if (ch === '"') {
      quoted = !quoted;
      continue;
    }
    if (quoted) {
      out += ch;
      continue;
    }
    if (ch === '\\') {
      out += fragment[i + 1] ?? '';
      i++;
    } else if (ch === '_' || ch === '*') {
      i++;
      if (ch === '_') out += ' ';
    } else if (ch !== '%' && ch !== ',') out += ch;
    else if (ch === '%') out += '%';
  }
  return out;
}
