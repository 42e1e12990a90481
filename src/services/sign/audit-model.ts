/**
 * The audit-trail certificate (docs/api.md "The audit-trail certificate") as a DocumentModel, so that
 * Quire's own engine sets it: fonts, fallback faces for names in any script, line breaking and
 * tables that flow over pages with their header row repeated. Laid out like DocuSign's
 * "Certificate of Completion": a title, a summary table, the events in time order, the metadata,
 * the signing certificate, and a closing line saying the signature covers these pages.
 */

import {
  type Block,
  type Border,
  type DocumentModel,
  formatDate,
  type Inline,
  type Paragraph,
  type ParagraphProperties,
  plainRunProperties,
  type RunProperties,
  type Section,
  type Table,
  type TableCell,
  type TableRow,
} from '../../engine';
import { groupedFingerprint } from '../../kit';
import { breakableText, dataLines } from './event-data-text';
import type { AuditCertificateInfo, AuditEvent } from './sign-types';

export const LETTER = { width: 612, height: 792 };

const FONT = 'Calibri';
const BODY_SIZE = 9.5;
const INK = '1F1F1F';
const MUTED = '595959';
const ACCENT = '1F3864';
const RULE: Border = { style: 'single', width: 0.5, space: 0, color: 'BFBFBF' };
const HEADER_SHADING = 'EEF1F6';
const LABEL_SHADING = 'F7F7F7';

const EVENT_NAMES: Record<AuditEvent['type'], string> = {
  ready: 'Document ready',
  view: 'Viewed',
  scroll: 'Scrolled',
  field_change: 'Field changed',
  submit: 'Submitted',
  sign: 'Signed',
};

/** The event type in words, as the certificate prints it. */
export function eventName(type: AuditEvent['type']): string {
  return EVENT_NAMES[type] ?? type;
}

/** The events in time order; equal or unreadable times keep the order received (unreadable last). */
export function eventsInTimeOrder(events: readonly AuditEvent[]): AuditEvent[] {
  const time = (event: AuditEvent) => {
    const ms = Date.parse(event.timestamp);
    return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
  };
  return events
    .map((event, index) => ({ event, index, ms: time(event) }))
    .sort((a, b) => (a.ms === b.ms ? a.index - b.index : a.ms < b.ms ? -1 : 1))
    .map(({ event }) => event);
}

/** ISO 8601 in UTC ("2026-11-22T18:15:40Z", milliseconds only when there are some); the text as sent if unreadable. */
export function utcIso(timestamp: string | Date): string {
  const ms = timestamp instanceof Date ? timestamp.getTime() : Date.parse(timestamp);
  if (Number.isNaN(ms)) return String(timestamp);
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** "Sunday, 22 November 2026, 18:15:40 UTC": the same instant for a reader, not a parser. */
export function utcReadable(date: Date): string {
  return formatDate(date.toISOString(), "dddd, d MMMM yyyy, HH:mm:ss 'UTC'");
}

export interface PageSize {
  width: number;
  height: number;
}

/** Pages smaller than 3 in or larger than 2 × A0 are no size to print a table on: Letter instead. */
const MIN_SIDE = 216;
const MAX_SIDE = 3370;

/** The size the certificate is set at: the one asked for when it is a sensible page, else Letter. */
export function certificatePageSize(size: PageSize | undefined): PageSize {
  if (!size) return LETTER;
  const sides = [size.width, size.height];
  return sides.every((side) => Number.isFinite(side) && side >= MIN_SIDE && side <= MAX_SIDE) ? size : LETTER;
}

export function buildAuditModel(info: AuditCertificateInfo, requested?: PageSize): DocumentModel {
  const size = certificatePageSize(requested);
  // Margins scale down on small pages (A5, A6) so the tables keep a usable width.
  const margin = Math.max(28, Math.min(48, Math.min(size.width, size.height) * 0.08));
  const contentWidth = size.width - 2 * margin;
  const events = eventsInTimeOrder(info.events);
  const blocks: Block[] = [
    paragraph([text('Signing certificate', { size: 20, bold: true, color: ACCENT })], { after: 1 }),
    paragraph([text('Audit trail of the electronic signature of this document', { color: MUTED, size: 10.5 })], {
      after: 6,
    }),
    heading('Summary'),
    keyValueTable(contentWidth, summaryRows(info)),
    heading(`Events (${events.length}, in time order)`),
    eventsTable(contentWidth, events),
    heading('Metadata'),
    ...metadataBlocks(contentWidth, info.metadata),
    heading('Signing certificate'),
    keyValueTable(contentWidth, certificateRows(info)),
    paragraph(
      [
        text(
          `The electronic signature applied to this document covers these certificate pages as well as the ` +
            `${info.documentPages} ${info.documentPages === 1 ? 'page' : 'pages'} of the document before them: ` +
            'any change to either after signing invalidates it.',
          { color: MUTED, italic: true },
        ),
      ],
      { before: 10 },
    ),
  ];
  const section: Section = {
    start: 'nextPage',
    page: {
      width: size.width,
      height: size.height,
      margins: {
        top: margin,
        right: margin,
        bottom: margin,
        left: margin,
        header: margin / 2,
        footer: margin / 2,
        gutter: 0,
      },
    },
    columns: { count: 1, space: 36, separator: false },
    titlePage: false,
    pageNumbering: { start: 1, format: 'decimal' },
    headers: {},
    footers: { default: [footer(info)] },
    blocks,
  };
  return {
    properties: { title: 'Signing certificate', created: info.signedAt.toISOString() },
    settings: { defaultTabStop: 36, evenAndOddHeaders: false },
    sections: [section],
    images: {},
    embeddedFonts: [],
    notes: { footnotes: {}, endnotes: {} },
    warnings: [],
  };
}

type Row = { label: string; value: Inline[][] };

function summaryRows(info: AuditCertificateInfo): Row[] {
  const { signer } = info;
  return [
    { label: 'Document SHA-256', value: [[text(info.documentSha256)]] },
    { label: 'Document pages', value: [[text(`${info.documentPages} (before these certificate pages)`)]] },
    { label: 'Event ID', value: [[text(breakableText(info.eventId))]] },
    {
      label: 'Signed at (UTC)',
      value: [[text(utcIso(info.signedAt))], [text(utcReadable(info.signedAt), { color: MUTED })]],
    },
    { label: 'Signer', value: [[text(signer.name, { bold: true })]] },
    { label: 'Email', value: [[text(breakableText(signer.email))]] },
    { label: 'IP address', value: [[notGiven(signer.ip)]] },
    { label: 'User agent', value: [[notGiven(signer.userAgent && breakableText(signer.userAgent))]] },
  ];
}

function certificateRows(info: AuditCertificateInfo): Row[] {
  const cert = info.certificate;
  return [
    { label: 'Subject', value: [[text(cert.subject)]] },
    { label: 'Issuer', value: [[text(cert.issuer)]] },
    { label: 'Serial number', value: [[text(breakableText(cert.serialNumber))]] },
    { label: 'Valid', value: [[text(`from ${utcIso(cert.notBefore)} to ${utcIso(cert.notAfter)}`)]] },
    // Two lines of 16 byte pairs, so the halves line up for comparing by eye.
    {
      label: 'SHA-256 fingerprint',
      value: fingerprintHalves(cert.sha256).map((half) => [text(half)]),
    },
  ];
}

function fingerprintHalves(sha256: string): string[] {
  const pairs = groupedFingerprint(sha256).split(' ');
  return pairs.length > 16 ? [pairs.slice(0, 16).join(' '), pairs.slice(16).join(' ')] : [pairs.join(' ')];
}

function notGiven(value: string | undefined): Inline {
  return value ? text(value) : text('not given', { color: MUTED, italic: true });
}

/** key: value lines, the key in bold; long values wrap inside the cell. */
function dataParagraphs(data: Record<string, unknown>): Paragraph[] {
  const lines = dataLines(data);
  if (lines.length === 0) return [paragraph([text('—', { color: MUTED })])];
  return lines.map(({ key, value }) =>
    paragraph([text(`${breakableText(key)}: `, { bold: true }), text(breakableText(value))]),
  );
}

function metadataBlocks(contentWidth: number, metadata: Record<string, unknown> | undefined): Block[] {
  if (!metadata || Object.keys(metadata).length === 0) {
    return [paragraph([text('None was given.', { color: MUTED, italic: true })])];
  }
  return [table([contentWidth], [row([cell(dataParagraphs(metadata))])])];
}

function eventsTable(contentWidth: number, events: AuditEvent[]): Table {
  // Room for "2026-11-22T09:03:12.250Z" and "Field changed" on Letter and A4; less on small pages.
  const timeWidth = Math.min(118, contentWidth * 0.3);
  const typeWidth = Math.min(82, contentWidth * 0.2);
  const header = row(
    [cell([label('Time (UTC)')]), cell([label('Event')]), cell([label('Details')])].map((c) => ({
      ...c,
      shading: HEADER_SHADING,
    })),
    true,
  );
  const rows = events.map((event) => {
    const details = dataParagraphs(event.data ?? {});
    // An event's few lines stay on one page; a long one may split rather than leave a gap.
    return row(
      [
        cell([paragraph([text(utcIso(event.timestamp))])]),
        cell([paragraph([text(eventName(event.type), { bold: true })])]),
        cell(details),
      ],
      false,
      details.length <= 8,
    );
  });
  return table([timeWidth, typeWidth, contentWidth - timeWidth - typeWidth], [header, ...rows]);
}

function keyValueTable(contentWidth: number, rows: Row[]): Table {
  const labelWidth = Math.min(130, contentWidth * 0.3);
  return table(
    [labelWidth, contentWidth - labelWidth],
    rows.map(({ label: name, value }) =>
      row([{ ...cell([label(name)]), shading: LABEL_SHADING }, cell(value.map((inlines) => paragraph(inlines)))]),
    ),
  );
}

function heading(title: string): Paragraph {
  return paragraph([text(title, { size: 12, bold: true, color: ACCENT })], { before: 11, after: 4, keepNext: true });
}

function label(value: string): Paragraph {
  return paragraph([text(value, { bold: true, color: MUTED })]);
}

function footer(info: AuditCertificateInfo): Paragraph {
  const props = runProps({ size: 8, color: MUTED });
  return paragraph(
    [
      text(`Quire signing certificate · ${breakableText(info.eventId)} · page `, { size: 8, color: MUTED }),
      { kind: 'field', field: 'PAGE', cached: '1', props },
      text(' of ', { size: 8, color: MUTED }),
      { kind: 'field', field: 'NUMPAGES', cached: '1', props },
    ],
    { align: 'center' },
  );
}

function table(grid: number[], rows: TableRow[]): Table {
  return {
    kind: 'table',
    grid,
    rows,
    indent: 0,
    width: { type: 'dxa', value: grid.reduce((sum, width) => sum + width, 0) },
    layout: 'fixed',
    align: 'left',
    cellMargins: { top: 2.5, left: 5, bottom: 2.5, right: 5 },
    borders: { top: RULE, bottom: RULE, left: RULE, right: RULE, insideH: RULE, insideV: RULE },
  };
}

function row(cells: TableCell[], isHeader = false, cantSplit = isHeader): TableRow {
  return { cells, isHeader, cantSplit };
}

function cell(blocks: Block[]): TableCell {
  return { blocks, span: 1 };
}

function text(value: string, props: Partial<RunProperties> = {}): Inline {
  return { kind: 'text', text: value, props: runProps(props) };
}

type Spacing = { before?: number; after?: number; align?: ParagraphProperties['align']; keepNext?: boolean };

function paragraph(
  inlines: Inline[],
  { before = 0, after = 0, align = 'left', keepNext = false }: Spacing = {},
): Paragraph {
  return {
    kind: 'paragraph',
    props: {
      align,
      indent: { left: 0, right: 0, firstLine: 0 },
      spacing: { before, after, line: 1.05, lineRule: 'auto' },
      tabs: [],
      keepNext,
      keepLines: false,
      widowControl: true,
      pageBreakBefore: false,
      contextualSpacing: false,
      borders: {},
      rtl: false,
    },
    markProps: runProps(),
    inlines,
  };
}

function runProps(overrides: Partial<RunProperties> = {}): RunProperties {
  return plainRunProperties({ font: FONT, size: BODY_SIZE }, { color: INK, ...overrides });
}
