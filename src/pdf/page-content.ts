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
 * on a baseline are placed with Td, relative to the one before.
 */
import type { ImageItem, LineItem, Page, PathItem, RectItem, TextItem } from '../layout/display-list';
import { type Rgb, rgbOf, sameRgb } from './pdf-color';
import { pdfY, round } from './pdf-geometry';

export interface ContentResources {
  /** The page's resource name for a face key's font ("/F1"), registered on first use. */
  fontName(key: string): string;
  /**
   * Writes the text encoded as glyph codes for that font at that size: the bytes of a literal
   * string's body (with operators between `) Tj` and `(` where marks are moved, PaintFont). The
   * bytes handed to `write` are only valid until it returns.
   */
  encode(key: string, text: string, size: number, write: (codes: Uint8Array) => void): void;
  /** The page's resource name for an image key's XObject ("/Im1"), registered on first use. */
  imageName(key: string): string;
}

/** A growing byte buffer for a content stream: operators are ASCII, shown strings are bytes. */
class ContentBytes {
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

  readonly write = (value: Uint8Array): void => {
    this.#room(value.length);
    const bytes = this.#bytes;
    // Most shown strings are a word's few codes, for which a loop beats set()'s call.
    if (value.length > 32) bytes.set(value, this.length);
    else for (let i = 0; i < value.length; i++) bytes[this.length + i] = value[i] as number;
    this.length += value.length;
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

  result(): Uint8Array {
    return this.#bytes.subarray(0, this.length);
  }
}

/** The page's content stream (ISO 32000-1 §7.8.2); empty when the page draws nothing. */
export function pageContent(page: Page, resources: ContentResources): Uint8Array {
  const out = new ContentBytes();
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
  let inText = false;
  /**
   * Where the text line matrix (§9.4.2) starts, in thousandths of a point, when it is a plain
   * translation on this baseline set by Tm or Td in this text object; undefined otherwise (outside
   * a text object, or after rotated text).
   */
  let lineX: number | undefined;
  let lineY = 0;

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
    out.text('ET\n');
    inText = false;
    lineX = undefined;
  };

  const text = (item: TextItem) => {
    if (item.text === '') return;
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
    const x = round(item.x);
    const y = pdfY(page.height, item.y);
    const thousandthsX = Math.round(x * 1000);
    if (item.angle) {
      // Rotated text: the text matrix turns the glyphs about their origin (§9.4.2).
      const radians = (item.angle * Math.PI) / 180;
      const cos = round(Math.cos(radians));
      const sin = round(Math.sin(radians));
      out.num(cos);
      out.num(sin);
      out.num(-sin);
      out.num(cos);
      out.num(x);
      out.num(y);
      out.text('Tm\n(');
      lineX = undefined;
    } else if (lineX !== undefined && y === lineY) {
      // The next word on the same baseline: Td moves the line matrix along it (§9.4.2), a third
      // of Tm's bytes, and content streams are most of what the painter deflates. The offset is
      // the difference of the rounded positions, so the start never drifts from Tm's. Across
      // baselines Tm stays: poppler's word boxes after a Td in y come out a rounding error apart,
      // enough to change the order pdftotext reads aligned words in.
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
    resources.encode(item.font, item.text, item.size, out.write);
    out.text(') Tj\n');
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
