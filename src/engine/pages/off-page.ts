/**
 * What a page's display list draws beyond the page's edges, where no viewer shows it: the check
 * behind "nothing lost, or a warning that says what". Content is placed past an edge when it
 * cannot fit anywhere (a picture larger than the page, a line forced onto a page it overflows, a
 * frame positioned off the sheet); Word draws it there too and the sheet cuts it, so Quire does
 * the same and says so. Shapes and rules are decoration (a bleed to the edge is common and
 * deliberate) and are not counted; text is, wherever it starts, and pictures when a quarter or
 * more of them is cut.
 */

import type { PlacedLine } from '../layout';
import type { Page } from './display-list';

export interface OffPage {
  /** Text items that start outside the page. */
  text: number;
  /** Pictures of which a quarter or more lies outside the page. */
  pictures: number;
}

/** How much of a cut picture counts as lost: a picture that only bleeds over an edge does not. */
const PICTURE_CUT_SHARE = 0.25;

/**
 * Text items carry no width, so text that starts on the page and runs past its right edge (a line
 * laid out wider than the room it was placed in) is found on the laid-out lines instead: a line
 * with visible text reaching more than a point beyond the page's right edge.
 */
export function linesOffPage(lines: readonly PlacedLine[], width: number): number {
  let count = 0;
  for (const placed of lines) {
    if (placed.turn) continue;
    for (const fragment of placed.line.fragments) {
      if (fragment.text.trim() === '' || fragment.box.kind !== 'text') continue;
      if (placed.x + fragment.x + fragment.width > width + 1) {
        count++;
        break;
      }
    }
  }
  return count;
}

export function offPage(page: Page): OffPage {
  const out: OffPage = { text: 0, pictures: 0 };
  for (const item of page.items) {
    if (item.kind === 'text') {
      // Turned text (angle) is placed by its own frame; its start may lie anywhere on a drawn line.
      if (item.angle || item.text.trim() === '') continue;
      const top = item.y - item.size;
      if (item.x >= page.width || item.y <= 0 || top >= page.height) out.text++;
      continue;
    }
    if (item.kind === 'image') {
      const area = item.width * item.height;
      if (area <= 0) continue;
      const visibleWidth = Math.max(0, Math.min(item.x + item.width, page.width) - Math.max(item.x, 0));
      const visibleHeight = Math.max(0, Math.min(item.y + item.height, page.height) - Math.max(item.y, 0));
      if (1 - (visibleWidth * visibleHeight) / area >= PICTURE_CUT_SHARE) out.pictures++;
    }
  }
  return out;
}

/** Warnings for the pages that drew content off the page: one per kind, naming the pages. */
export class OffPageReport {
  private readonly text: number[] = [];
  private readonly pictures: number[] = [];

  /** `index`: the page's 0-based place in the document; `lines`: its body, notes, header and footer lines. */
  add(page: Page, index: number, lines: readonly PlacedLine[][]): void {
    const found = offPage(page);
    if (found.text > 0 || lines.some((group) => linesOffPage(group, page.width) > 0)) this.text.push(index + 1);
    if (found.pictures > 0) this.pictures.push(index + 1);
  }

  warnings(): string[] {
    const out: string[] = [];
    if (this.text.length > 0) {
      out.push(
        `Text that fits nowhere on its page runs past the page's edge and is cut there, as in Word (${pageList(this.text)}). Check those pages in Word: a frame or text box placed off the sheet, or content taller than the page.`,
      );
    }
    if (this.pictures.length > 0) {
      out.push(
        `A picture larger than its page, or placed partly off it, is cut at the page's edge, as in Word (${pageList(this.pictures)}).`,
      );
    }
    return out;
  }
}

/** "page 3", "pages 3, 5, 9", "pages 3, 5, 9 and 12 more". */
function pageList(pages: number[]): string {
  if (pages.length === 1) return `page ${pages[0]}`;
  const shown = pages.slice(0, 10).join(', ');
  return pages.length > 10 ? `pages ${shown} and ${pages.length - 10} more` : `pages ${shown}`;
}
