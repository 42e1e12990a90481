/**
 * Pages (front door of src/engine/pages): the display list of a laid-out document and every painter
 * into it — lines, shapes, charts, pictures, metafiles, vertical text.
 */
export type { LaidOutDocument, OutlineEntry, Page } from './display-list';
export { type LayoutOptions, layoutPages, type PageSink } from './document-layout';
