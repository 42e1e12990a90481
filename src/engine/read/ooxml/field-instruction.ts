/**
 * Field instructions (ECMA-376 Part 1, §17.16.1 syntax, §17.16.5 field definitions): a field
 * name, arguments (quoted when they hold spaces) and switches such as \* roman, \@ "d MMMM yyyy",
 * \l "anchor".
 */
export interface FieldInstruction {
  /** Upper-cased field name: PAGE, PAGEREF, HYPERLINK, DATE… ("=" for formulas). */
  name: string;
  /** Arguments that are not switches, unquoted, in order. */
  args: string[];
  /** \* general format (the first that is not MERGEFORMAT/CHARFORMAT), e.g. "roman". */
  format?: string;
  /** \@ date-time picture. */
  datePicture?: string;
  /** Switches by letter, with their argument or '' when they take none. */
  switches: Map<string, string>;
}

/** Switches whose next token is their argument (§17.16.4.1, and the field-specific ones we read). */
const SWITCHES_WITH_ARGUMENT = new Set(['*', '@', '#', 'l', 'o', 't', 'm']);

export function parseFieldInstruction(instruction: string): FieldInstruction {
  const tokens = tokenize(instruction);
  const first = tokens[0];
  const name = first === undefined ? '' : first.quoted ? first.text : first.text.toUpperCase();
  const result: FieldInstruction = { name, args: [], switches: new Map() };
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (!token.quoted && token.text.length >= 2 && token.text.startsWith('\\')) {
      const letter = token.text.slice(1, 2);
      let argument = token.text.slice(2);
      if (argument === '' && SWITCHES_WITH_ARGUMENT.has(letter)) {
        const next = tokens[i + 1];
        if (next !== undefined && (next.quoted || !next.text.startsWith('\\'))) {
          argument = next.text;
          i++;
        }
      }
      if (letter === '*' && result.format === undefined) {
        const upper = argument.toUpperCase();
        if (upper !== 'MERGEFORMAT' && upper !== 'CHARFORMAT') result.format = argument;
      }
      if (letter === '@' && result.datePicture === undefined) result.datePicture = argument;
      if (!result.switches.has(letter)) result.switches.set(letter, argument);
      continue;
    }
    result.args.push(token.text);
  }
  return result;
}

interface Token {
  text: string;
  quoted: boolean;
}

/** Splits on white space; "…" groups (with \" and \\ escapes inside quotes). */
function tokenize(instruction: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const length = instruction.length;
  while (i < length) {
    const code = instruction.charCodeAt(i);
    if (code <= 0x20 || code === 0xa0) {
      i++;
      continue;
    }
    if (code === 0x22 /* " */ || code === 0x201c) {
      let text = '';
      i++;
      while (i < length) {
        const c = instruction[i] as string;
        if (c === '\\' && (instruction[i + 1] === '"' || instruction[i + 1] === '\\')) {
          text += instruction[i + 1];
          i += 2;
          continue;
        }
        if (c === '"' || c === '\u201d') {
          i++;
          break;
        }
        text += c;
        i++;
      }
      tokens.push({ text, quoted: true });
      continue;
    }
    const start = i;
    while (i < length) {
      const c = instruction.charCodeAt(i);
      if (c <= 0x20 || c === 0xa0 || c === 0x22) break;
      i++;
    }
    tokens.push({ text: instruction.slice(start, i), quoted: false });
  }
  return tokens;
}
