/**
 * A page's drawing items as content-stream operators, in display-list order. Links and anchors
 * draw nothing (they become annotations and destinations). State is tracked so that an operator
 * is written only when its value changes: colours, line width and dash are graphics state
 * (ISO 32000-1 §8.4), and font, size and character spacing are text state, which persists across
 * text objects (§9.3.1), so consecutive text items share one BT … ET.
 *
 * The operators are written straight into the stream's bytes, one per line: building an object per
 * operator and number (pdf-lib's operators) and printing them again when the file is saved cost
 * more than deciding what to draw. Text is shown as literal strings of glyph codes, half the size
 * of hex strings: content streams are most of what the painter deflates. Words after the first
 * on a baseline join its string where they can, placed by TJ numbers, else with Td, relative to
 * the one before.
 */
import type { ImageItem, LineItem, PathItem, RectItem, TextItem } from '../../layout';
import type { Page } from '../../pages';
import { type Rgb, rgbOf, sameRgb } from './pdf-color';
import { pdfY, round } from './pdf-geometry';

export interface ContentResources {
  /** The page's resource name for a face key's font ("/F1"), registered on first use. */
  fontName(key: string): string;
  /**
   * Writes the text encoded as glyph codes for that font: the bytes of a literal string's body
   * (PaintFont). The bytes handed to `write` (the first `length` of them, all when it is not
   * given) are only valid until it returns. Returns their advance in thousandths of text space
   * (the sum of their W widths). `rightToLeft` (TextItem.rtl): the words and spaces go last
   * first, as they show.
   */
  encode(key: string, text: string, write: (codes: Uint8Array, length?: number) => void, rightToLeft?: boolean): number;
  /** The page's resource name for an image key's XObject ("/Im1"), registered on first use. */
  imageName(key: string): string;
}

/**
 * A growing byte buffer for a content stream: operators are ASCII, shown strings are bytes. A
 * painter keeps one for all its pages (pageContent starts it over): a new one per page grew by
 * doubling from 4 KiB, copying as it went, and was garbage as soon as the page was copied out.
 */
export class ContentBytes {
  #bytes = new Uint8Array(4096);
  length = 0;

  #room(extra: number): void {
    if (this.length + extra <= this.#bytes.length) return;
    let size = this.#bytes.length * 2;
    while (size < this.length + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.#bytes.subarray(0, this.length));
    this.#bytes = grown;
  }

  /** ASCII text (operators, names, separators). */
  text(value: string): void {
    this.#room(value.length);
    const bytes = this.#bytes;
    for (let i = 0; i < value.length; i++) bytes[this.length++] = value.charCodeAt(i);
  }

  /** The first `length` bytes of `value`. */
  readonly write = (value: Uint8Array, length = value.length): void => {
    this.#room(length);
    const bytes = this.#bytes;
    // Most shown strings are a word's few codes, for which a loop beats set()'s call.
    if (length > 32) bytes.set(length === value.length ? value : value.subarray(0, length), this.length);
    else for (let i = 0; i < length; i++) bytes[this.length + i] = value[i] as number;
    this.length += length;
  };

  /**
   * A number as an operand, followed by a space: the text String(value) gives (pdf-lib's
   * numberToString gives the same for these), written digit by digit for the values `round`
   * leaves (at most three decimals), which is nearly all of them.
   */
  num(value: number): void {
    let scaled = Math.round(value * 1000);
    if (scaled / 1000 !== value || scaled > 1e15 || scaled < -1e15) {
      this.text(`${String(value)} `);
      return;
    }
    this.#room(24);
    const bytes = this.#bytes;
    if (scaled < 0) {
      bytes[this.length++] = 0x2d; // -
      scaled = -scaled;
    }
    let whole = Math.floor(scaled / 1000);
    let fraction = scaled - whole * 1000;
    // The whole part's digits, without the string String(whole) would allocate.
    let count = 1;
    for (let power = 10; power <= whole; power *= 10) count++;
    const end = this.length + count;
    for (let at = end - 1; at >= this.length; at--) {
      const rest = Math.floor(whole / 10);
      bytes[at] = 0x30 + (whole - rest * 10);
      whole = rest;
    }
    this.length = end;
    if (fraction !== 0) {
      bytes[this.length++] = 0x2e; // .
      let place = 100;
      while (fraction !== 0) {
        const digit = Math.floor(fraction / place);
        bytes[this.length++] = 0x30 + digit;
        fraction -= digit * place;
        place /= 10;
      }
    }
    bytes[this.length++] = 0x20;
  }

  /** Inserts an ASCII byte at `at`, moving what follows along. */
  insert(at: number, byte: number): void {
    this.#room(1);
    this.#bytes.copyWithin(at + 1, at, this.length);
    this.#bytes[at] = byte;
    this.length++;
  }

  /** Drops everything from `at` on. */
  truncate(at: number): void {
    this.length = at;
  }

  result(): Uint8Array {
    return this.#bytes.subarray(0, this.length);
  }
}

/**
 * The page's content stream (ISO 32000-1 §7.8.2); empty when the page draws nothing. It is a view
 * of `out`'s bytes, valid until `out` is used again.
 */
export function pageContent(page: Page, resources: ContentResources, out = new ContentBytes()): Uint8Array {
  out.truncate(0);
  // Initial state per §8.4.1 and §9.3.1: black, 1 pt lines, solid, no font, Tc 0.
  let fillColor: Rgb = [0, 0, 0];
  /** The display-list colour fillColor was last set from: text items name one, mostly the same. */
  let fillHex: string | undefined;
  let strokeColor: Rgb = [0, 0, 0];
  let lineWidth = 1;
  let dash = '';
  let font = '';
  let fontSize = 0;
  let characterSpacing = 0;
  /** Text rendering mode (§9.3.6): 0 fill, 1 stroke, 2 fill then stroke, 3 neither. */
  let renderMode = 0;
  let inText = false;
  /**
   * Where the text line matrix (§9.4.2) starts, in thousandths of a point, when it is a plain
   * translation on this baseline set by Tm or Td in this text object; undefined otherwise (outside
   * a text object, or after rotated text).
   */
  let lineX: number | undefined;
  let lineY = 0;
  /**
   * The shown string still open in this text object: the offset of its "(", or -1 when none is.
   * Words that follow on the baseline in the same font, size and colour join it (see text), so
   * it is closed only when something else comes: with Tj, or with TJ once it holds adjustments.
   */
  let showStart = -1;
  let showArray = false;
  /** Where the reader's pen is after the open string (§9.4.4), in points; NaN when not known. */
  let penX = Number.NaN;

  const closeShow = () => {
    if (showStart < 0) return;
    out.text(showArray ? ')] TJ\n' : ') Tj\n');
    showStart = -1;
    showArray = false;
  };
  const fillChanges = (hex: string) => hex !== fillHex && !sameRgb(fillColor, rgbOf(hex));
  const setFill = (hex: string) => {
    if (hex === fillHex) return;
    fillHex = hex;
    const color = rgbOf(hex);
    if (sameRgb(fillColor, color)) return;
    out.num(color[0]);
    out.num(color[1]);
    out.num(color[2]);
    out.text('rg\n');
    fillColor = color;
  };
  const setStroke = (color: Rgb, width: number, dashArray: readonly number[] = []) => {
    if (!sameRgb(strokeColor, color)) {
      out.num(color[0]);
      out.num(color[1]);
      out.num(color[2]);
      out.text('RG\n');
      strokeColor = color;
    }
    const w = round(width);
    if (w !== lineWidth) {
      out.num(w);
      out.text('w\n');
      lineWidth = w;
    }
    // Nearly every stroke is solid: no array or key to build for it.
    if (dashArray.length === 0 && dash === '') return;
    const d = dashArray.map(round);
    const dashKey = d.join(' ');
    if (dashKey !== dash) {
      out.text(`[${d.map(String).join(' ')}] 0 d\n`);
      dash = dashKey;
    }
  };
  const leaveText = () => {
    if (!inText) return;
    closeShow();
    out.text('ET\n');
    inText = false;
    lineX = undefined;
  };

  /**
   * The next word on the open string's baseline, in its font, size and colour, at Tc 0: shown in
   * the same string, the pen moved to it by a TJ number (§9.4.3, thousandths of text space,
   * positive moves left) when it is not already there within half of one. Words at their
   * natural spacing so become one string per line, and a justified line one TJ:
   * about a third of the bytes of a Td and a Tj per word. False, writing nothing, when the word
   * cannot join.
   */
  const joinShow = (item: TextItem, x: number, y: number): boolean => {
    if (showStart < 0 || Number.isNaN(penX) || item.angle || y !== lineY) return false;
    if (item.scaleX !== undefined || item.outline !== undefined || item.unfilled) return false;
    if (item.font !== font || item.size !== fontSize || characterSpacing !== 0) return false;
    if (round(item.characterSpacing ?? 0) !== 0) return false;
    if (fillChanges(item.color)) return false;
    let pen = penX;
    // Whole thousandths of text space: at most half of one off, 0.006 pt at 12 pt, and no
    // further, since the pen is followed where the reader puts it, not where it was meant to be.
    const adjustment = Math.round(((pen - x) * 1000) / item.size);
    if (adjustment !== 0) {
      if (!showArray) {
        out.insert(showStart, 0x5b); // [
        showStart++;
        showArray = true;
      }
      out.text(') ');
      out.num(adjustment);
      out.text('(');
      pen -= (adjustment * item.size) / 1000;
    }
    const advance = resources.encode(item.font, item.text, out.write, item.rtl);
    penX = pen + (advance * item.size) / 1000;
    return true;
  };

  const text = (item: TextItem) => {
    if (item.text === '') return;
    const x = round(item.x);
    const y = pdfY(page.height, item.y);
    if (joinShow(item, x, y)) return;
    closeShow();
    if (!inText) {
      out.text('BT\n');
      inText = true;
    }
    if (item.font !== font || item.size !== fontSize) {
      out.text(`${resources.fontName(item.font)} `);
      out.num(item.size);
      out.text('Tf\n');
      font = item.font;
      fontSize = item.size;
    }
    setFill(item.color);
    const spacing = round(item.characterSpacing ?? 0);
    if (spacing !== characterSpacing) {
      out.num(spacing); // Tc: added after every glyph (§9.3.2).
      out.text('Tc\n');
      characterSpacing = spacing;
    }
    // WordArt's outlined or unfilled glyphs: the stroke is the current line width and colour.
    const mode = item.unfilled ? (item.outline ? 1 : 3) : item.outline ? 2 : 0;
    if (item.outline) setStroke(rgbOf(item.outline.color), item.outline.width);
    if (mode !== renderMode) {
      out.num(mode);
      out.text('Tr\n');
      renderMode = mode;
    }
    const thousandthsX = Math.round(x * 1000);
    const scaleX = item.scaleX ?? 1;
    if (item.angle || scaleX !== 1) {
      // Rotated or stretched text: the text matrix scales the glyphs along their baseline, then
      // turns them about their origin (§9.4.2).
      const radians = ((item.angle ?? 0) * Math.PI) / 180;
      const cos = Math.cos(radians);
      const sin = Math.sin(radians);
      out.num(round(scaleX * cos));
      out.num(round(scaleX * sin));
      out.num(round(-sin));
      out.num(round(cos));
      out.num(x);
      out.num(y);
      out.text('Tm\n(');
      lineX = undefined;
    } else if (lineX !== undefined && y === lineY) {
      // The next word on the same baseline that cannot join the string before: Td moves the line
      // matrix along it (§9.4.2), a third of Tm's bytes. The offset is the difference of the
      // rounded positions, so the start never drifts from Tm's. Across baselines Tm stays:
      // poppler's word boxes after a Td in y come out a rounding error apart, enough to change
      // the order pdftotext reads aligned words in.
      out.num((thousandthsX - lineX) / 1000);
      out.text('0 Td\n(');
      lineX = thousandthsX;
    } else {
      out.text('1 0 0 1 ');
      out.num(x);
      out.num(y);
      out.text('Tm\n(');
      lineX = thousandthsX;
      lineY = y;
    }
    showStart = out.length - 1;
    const advance = resources.encode(item.font, item.text, out.write, item.rtl);
    penX = item.angle || spacing !== 0 || scaleX !== 1 || mode !== 0 ? Number.NaN : x + (advance * item.size) / 1000;
  };

  const line = (item: LineItem) => {
    if (item.width <= 0) return;
    setStroke(rgbOf(item.color), item.width, item.dash);
    out.num(round(item.x1));
    out.num(pdfY(page.height, item.y1));
    out.text('m\n');
    out.num(round(item.x2));
    out.num(pdfY(page.height, item.y2));
    out.text('l\nS\n');
  };

  const rect = (item: RectItem) => {
    const stroked = item.stroke !== undefined && (item.strokeWidth ?? 1) > 0;
    if (item.fill === undefined && !stroked) return;
    if (item.fill !== undefined) setFill(item.fill);
    if (stroked && item.stroke !== undefined) setStroke(rgbOf(item.stroke), item.strokeWidth ?? 1);
    out.num(round(item.x));
    out.num(pdfY(page.height, item.y + item.height));
    out.num(round(item.width));
    out.num(round(item.height));
    out.text(item.fill === undefined ? 're\nS\n' : stroked ? 're\nB\n' : 're\nf\n');
  };

  /** A path (§8.5.2 construction, §8.5.3 painting: f fills non-zero, f* even-odd, S strokes, B both). */
  const path = (item: PathItem) => {
    const stroked = item.stroke !== undefined && (item.strokeWidth ?? 1) > 0;
    if ((item.fill === undefined && !stroked) || item.commands.length === 0) return;
    if (item.fill !== undefined) setFill(item.fill);
    if (stroked && item.stroke !== undefined) setStroke(rgbOf(item.stroke), item.strokeWidth ?? 1, item.dash);
    for (const command of item.commands) {
      if (command.op === 'Z') {
        out.text('h\n');
        continue;
      }
      if (command.op === 'C') {
        out.num(round(command.x1));
        out.num(pdfY(page.height, command.y1));
        out.num(round(command.x2));
        out.num(pdfY(page.height, command.y2));
      }
      out.num(round(command.x));
      out.num(pdfY(page.height, command.y));
      out.text(command.op === 'M' ? 'm\n' : command.op === 'L' ? 'l\n' : 'c\n');
    }
    const even = item.evenOdd ? '*' : '';
    out.text(item.fill === undefined ? 'S\n' : stroked ? `B${even}\n` : `f${even}\n`);
  };

  const image = (item: ImageItem) => {
    // An image XObject fills the unit square; cm scales and places it (§8.9.5).
    // A mirrored image (a metafile bitmap drawn through a flipping transform) negates an axis.
    const matrix = [
      round(item.flipX ? -item.width : item.width),
      0,
      0,
      round(item.flipY ? -item.height : item.height),
      round(item.flipX ? item.x + item.width : item.x),
      pdfY(page.height, item.flipY ? item.y : item.y + item.height),
    ];
    out.text('q\n');
    for (const value of matrix) out.num(value);
    out.text(`cm\n${resources.imageName(item.image)} Do\nQ\n`);
  };

  for (const item of page.items) {
    if (item.kind === 'text') {
      text(item);
      continue;
    }
    if (item.kind === 'link' || item.kind === 'anchor') continue;
    leaveText();
    if (item.kind === 'line') line(item);
    else if (item.kind === 'rect') rect(item);
    else if (item.kind === 'path') path(item);
    else image(item);
  }
  leaveText();
  return out.result();
}
