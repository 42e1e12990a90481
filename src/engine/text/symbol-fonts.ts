/**
 * Symbol-encoded fonts (Symbol, Wingdings) put their glyphs at byte codes, which Word writes either
 * as the byte itself or in the private use area U+F000 + byte (w:sym/@w:char, §17.3.3.30; bullets
 * in w:lvlText). Neither face ships with this service, so their glyphs are mapped to the Unicode
 * characters they show, which the bundled and fallback faces can draw.
 */

/** Adobe's Symbol encoding (the published SYMBOL.TXT mapping), bytes 0x20–0xFE that differ from ASCII. */
const SYMBOL: Record<number, string> = {
  34: '∀',
  36: '∃',
  39: '∋',
  42: '∗',
  45: '−',
  64: '≅',
  65: 'Α',
  66: 'Β',
  67: 'Χ',
  68: 'Δ',
  69: 'Ε',
  70: 'Φ',
  71: 'Γ',
  72: 'Η',
  73: 'Ι',
  74: 'ϑ',
  75: 'Κ',
  76: 'Λ',
  77: 'Μ',
  78: 'Ν',
  79: 'Ο',
  80: 'Π',
  81: 'Θ',
  82: 'Ρ',
  83: 'Σ',
  84: 'Τ',
  85: 'Υ',
  86: 'ς',
  87: 'Ω',
  88: 'Ξ',
  89: 'Ψ',
  90: 'Ζ',
  92: '∴',
  94: '⊥',
  97: 'α',
  98: 'β',
  99: 'χ',
  100: 'δ',
  101: 'ε',
  102: 'φ',
  103: 'γ',
  104: 'η',
  105: 'ι',
  106: 'ϕ',
  107: 'κ',
  108: 'λ',
  109: 'μ',
  110: 'ν',
  111: 'ο',
  112: 'π',
  113: 'θ',
  114: 'ρ',
  115: 'σ',
  116: 'τ',
  117: 'υ',
  118: 'ϖ',
  119: 'ω',
  120: 'ξ',
  121: 'ψ',
  122: 'ζ',
  126: '∼',
  161: 'ϒ',
  162: '′',
  163: '≤',
  164: '⁄',
  165: '∞',
  166: 'ƒ',
  167: '♣',
  168: '♦',
  169: '♥',
  170: '♠',
  171: '↔',
  172: '←',
  173: '↑',
  174: '→',
  175: '↓',
  176: '°',
  177: '±',
  178: '″',
  179: '≥',
  180: '×',
  181: '∝',
  182: '∂',
  183: '•',
  184: '÷',
  185: '≠',
  186: '≡',
  187: '≈',
  188: '…',
  189: '⏐',
  190: '⎯',
  191: '↵',
  192: 'ℵ',
  193: 'ℑ',
  194: 'ℜ',
  195: '℘',
  196: '⊗',
  197: '⊕',
  198: '∅',
  199: '∩',
  200: '∪',
  201: '⊃',
  202: '⊇',
  203: '⊄',
  204: '⊂',
  205: '⊆',
  206: '∈',
  207: '∉',
  208: '∠',
  209: '∇',
  210: '®',
  211: '©',
  212: '™',
  213: '∏',
  214: '√',
  215: '⋅',
  216: '¬',
  217: '∧',
  218: '∨',
  219: '⇔',
  220: '⇐',
  221: '⇑',
  222: '⇒',
  223: '⇓',
  224: '◊',
  225: '〈',
  226: '®',
  227: '©',
  228: '™',
  229: '∑',
  241: '〉',
  242: '∫',
};

/** Wingdings glyphs by byte, the ones documents use as bullets, checkboxes and arrows. */
const WINGDINGS: Record<number, string> = {
  33: '✏',
  34: '✂',
  35: '✁',
  40: '☎',
  42: '✉',
  54: '⌛',
  55: '⌨',
  62: '✇',
  63: '✍',
  65: '✌',
  66: '👌',
  67: '👍',
  68: '👎',
  69: '☜',
  70: '☞',
  71: '☝',
  72: '☟',
  74: '☺',
  75: '😐',
  76: '☹',
  78: '☠',
  79: '⚐',
  81: '✈',
  82: '☼',
  84: '❄',
  86: '✞',
  88: '✠',
  89: '✡',
  90: '☪',
  91: '☯',
  92: 'ॐ',
  93: '☸',
  94: '♈',
  108: '●',
  109: '❍',
  110: '■',
  111: '□',
  112: '◻',
  113: '❑',
  114: '❒',
  115: '⬧',
  116: '⧫',
  117: '◆',
  118: '❖',
  119: '⬥',
  120: '⌧',
  121: '⍓',
  122: '⌘',
  123: '❀',
  124: '✿',
  125: '❝',
  126: '❞',
  128: '⓪',
  129: '①',
  130: '②',
  131: '③',
  132: '④',
  133: '⑤',
  134: '⑥',
  135: '⑦',
  136: '⑧',
  137: '⑨',
  138: '⑩',
  158: '·',
  159: '•',
  160: '▪',
  161: '○',
  162: '⭕',
  164: '◉',
  165: '◎',
  167: '▪',
  168: '◻',
  170: '✦',
  171: '★',
  172: '✶',
  173: '✴',
  174: '✹',
  175: '✵',
  177: '⌖',
  178: '⟡',
  179: '⌑',
  181: '✪',
  182: '✰',
  213: '⌫',
  214: '⌦',
  216: '➢',
  223: '←',
  224: '→',
  225: '↑',
  226: '↓',
  232: '➔',
  239: '⇦',
  240: '⇨',
  241: '⇧',
  242: '⇩',
  243: '⬄',
  244: '⇳',
  251: '✗',
  252: '✓',
  253: '☒',
  254: '☑',
};

/** Wingdings 2 and 3: the few glyphs used as bullets and checkboxes. */
const WINGDINGS_2: Record<number, string> = {
  80: '✓',
  79: '✗',
  82: '☑',
  83: '☒',
  84: '☒',
  151: '●',
  152: '●',
  153: '○',
  163: '□',
  162: '■',
  174: '◆',
  183: '▪',
};
const WINGDINGS_3: Record<number, string> = {
  125: '▶',
  113: '▲',
  114: '▼',
  117: '◀',
  198: '➔',
  208: '➤',
};

function tableFor(font: string | undefined): Record<number, string> | undefined {
  if (font === undefined) return undefined;
  const name = font.trim().toLowerCase();
  if (name === 'symbol') return SYMBOL;
  if (name === 'wingdings') return WINGDINGS;
  if (name === 'wingdings 2') return WINGDINGS_2;
  if (name === 'wingdings 3') return WINGDINGS_3;
  return undefined;
}

/** Whether `font` is a symbol-encoded face this module knows. */
export function isSymbolFont(font: string | undefined): boolean {
  return tableFor(font) !== undefined;
}

/**
 * The Unicode text for one character code in a symbol font: `code` is the byte or U+F0xx. Private
 * use codes whose font is not given go through the Wingdings and then the Symbol table (Word's
 * default bullets use both); a font that is named but unknown is not guessed at. Undefined when
 * nothing is known, so the caller keeps the original.
 */
export function mapSymbolCharacter(code: number, font: string | undefined): string | undefined {
  const byte = code >= 0xf000 && code <= 0xf0ff ? code - 0xf000 : code <= 0xff ? code : -1;
  if (byte < 0) return undefined;
  const table = tableFor(font);
  if (table) return table[byte];
  if (code < 0xf000 || font !== undefined) return undefined;
  return WINGDINGS[byte] ?? SYMBOL[byte];
}

/** Whether `text` holds a private-use symbol code (U+F000–U+F0FF, a symbol font's byte + 0xF000). */
export function hasSymbolCodes(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xf000 && code <= 0xf0ff) return true;
  }
  return false;
}

/**
 * Text written in a symbol font, mapped character by character where the mapping is known. Used
 * for list bullets and for runs set in Symbol/Wingdings; returns the input when nothing changes.
 * `ascii` false leaves ASCII characters alone: the font is the run's w:hAnsi face, and Word sets
 * ASCII in the w:ascii one (§17.3.2.26).
 */
export function mapSymbolText(text: string, font: string | undefined, ascii = true): { text: string; mapped: boolean } {
  const known = tableFor(font) !== undefined;
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!ascii && code < 0x80) continue;
    // Without a known symbol font only private-use codes can be symbol bytes.
    if (!known && (code < 0xf000 || code > 0xf0ff)) continue;
    const mapped = mapSymbolCharacter(code, font);
    if (mapped === undefined) continue;
    out += text.slice(copied, i) + mapped;
    copied = i + 1;
  }
  if (copied === 0) return { text, mapped: false };
  return { text: out + text.slice(copied), mapped: true };
}
