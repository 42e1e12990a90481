/**
 * Flow (front door of src/engine/layout): paragraphs broken into lines, blocks, floats, notes and
 * tables placed on pages. The display-list item types live here because flow produces them; the
 * pages stage paints them.
 */
export { mirroredCharacter } from './bidi-reorder';
export { floatingOrigin } from './drawing-placement';
export { flattenBlocks } from './flatten-blocks';
export { collectFontNeeds } from './font-requests';
export { type Arranged, HeaderFooterLayout } from './header-footer';
export { type Fragment, faceFor } from './inline-boxes';
export { flowDocument, type PageFrame } from './page-flow';
export type {
  Color,
  ImageItem,
  LineItem,
  LinkItem,
  PageItem,
  PathCommand,
  PathItem,
  RectItem,
  TextItem,
} from './page-items';
export { layoutParagraph, sharesBorders } from './paragraph-layout';
export type { PlacedLine } from './placed-line';
export { hasCssTables, sizeCssTables, type TurnedBox } from './table';
