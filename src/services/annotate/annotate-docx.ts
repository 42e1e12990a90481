/**
 * Filling a DOCX template (docs/api.md "POST /v1/annotate"): the package is edited in place, never
 * rebuilt from a model (package-editor.ts), so everything the request does not name stays as the
 * author made it. Fields are content controls (content-control-finder.ts) and `{{name}}`
 * placeholders (placeholder-finder.ts) in the main document, headers, footers, footnotes and
 * endnotes (part-discovery.ts). Every field is matched before anything is filled: an id or group
 * that matches nothing fails the whole request (FIELD_NOT_FOUND, all of them listed), and pictures
 * are loaded before the first edit, so a failure never leaves a half-filled document.
 */

import type { PackageLimits } from '../../engine';
import { ApiError, type ErrorDetail } from '../../errors';
import { type AnnotateField, fieldLabel, type PictureLoader, type PreparedPicture } from './annotate-types';
import { fillCheckbox } from './checkbox-fill';
import {
  checkboxProperties,
  controlContent,
  controlId,
  controlKeys,
  controlLevel,
  controlMatches,
  findControls,
  isPictureControl,
} from './content-control-finder';
import { controlRunProperties, replaceControlContent } from './control-content';
import { customXmlStore, dataBindingOf, writeBoundValue } from './data-binding';
import {
  type Document,
  type Element,
  elementXml,
  importFragment,
  type Node,
  wAncestor,
  wAttr,
  wChild,
  wDescendants,
} from './ooxml-dom';
import { markChanged, openPackageEditor, type PackageEditor } from './package-editor';
import { storyParts } from './part-discovery';
import {
  existingExtent,
  maxDocPrId,
  type PicturePlacement,
  type PicturePlacementDeps,
  pictureRun,
} from './picture-placement';
import { findPlaceholders, paragraphPlaceholders } from './placeholder-finder';
import { replacePlaceholder } from './placeholder-replace';
import { textRun } from './run-content';
import { fillTableRows, templateRowOf } from './table-fill';

export interface AnnotateDeps extends PicturePlacementDeps {
  loadPicture: PictureLoader;
  signatureTextRunsXml: (name: string, firstRunProperties: string | undefined) => string;
  isImageValue: (value: string) => boolean;
}

export interface AnnotateOptions {
  /** The most the package may inflate to (ZIP bombs; src/limits.ts); DEFAULT_LIMITS when not given. */
  limits?: PackageLimits;
}

/** What a template offers to fill (for the check script and a debugging path). */
export interface DiscoveredFields {
  controls: {
    part: string;
    /** The id the tag gives (its JSON fieldId/id, or the tag itself), if it is tagged. */
    id: string | undefined;
    tag: string | undefined;
    /** The w:id, which also matches a field id. */
    numericId: string | undefined;
    groups: string[];
    kind: ControlKind;
  }[];
  /** Placeholder names, each once, in order of first appearance. */
  placeholders: string[];
}

export type ControlKind = 'checkbox' | 'picture' | 'table' | 'text';

interface StoryPart {
  name: string;
  document: Document;
  root: Element;
}

/** 6.5 inches (Letter with 1-inch margins) when the section does not say. */
const DEFAULT_TEXT_WIDTH_EMU = 5_943_600;
const EMU_PER_TWIP = 635;

export async function annotateDocx(
  bytes: Uint8Array,
  fields: AnnotateField[],
  deps: AnnotateDeps,
  options: AnnotateOptions = {},
): Promise<Uint8Array> {
  const editor = openPackageEditor(bytes, options.limits);
  const { main, parts } = readStories(editor);
  const controls = parts.flatMap((part) =>
    findControls(part.root).map((sdt) => ({ part, sdt, keys: controlKeys(sdt) })),
  );
  const placeholderNames = new Set(parts.flatMap((part) => findPlaceholders(part.root).map((found) => found.name)));

  const plans = fields.map((field) => ({
    field,
    controls: controls.filter((control) => controlMatches(control.keys, field)),
    placeholders: field.id !== undefined && placeholderNames.has(field.id),
  }));
  const unmatched: ErrorDetail[] = [];
  plans.forEach((plan, index) => {
    if (plan.controls.length === 0 && !plan.placeholders) {
      const key = plan.field.id !== undefined ? 'id' : 'group';
      unmatched.push({
        field: `fields[${index}].${key}`,
        issue: `${fieldLabel(plan.field)} matches no content control${key === 'id' ? ' and no {{placeholder}}' : ''} in the template`,
      });
    }
  });
  if (unmatched.length > 0) {
    const labels = plans.filter((_, index) => unmatched.some((detail) => detail.field.startsWith(`fields[${index}]`)));
    throw new ApiError(
      'FIELD_NOT_FOUND',
      `${unmatched.length === 1 ? 'A field matches' : `${unmatched.length} fields match`} nothing in the template: ${labels.map((plan) => fieldLabel(plan.field)).join(', ')}.`,
      { details: unmatched },
    );
  }

  // Pictures first: a value that is no image fails the request before anything is edited.
  const pictures = await Promise.all(
    plans.map(({ field }) =>
      field.type === 'image' || (field.type === 'signature' && deps.isImageValue(field.value))
        ? deps.loadPicture(field.value, fieldLabel(field))
        : undefined,
    ),
  );

  let docPrId = maxDocPrId(parts.map((part) => part.document));
  const placement: PicturePlacement = {
    editor,
    deps,
    nextDocPrId: () => ++docPrId,
    maxWidthEmu: textWidthEmu(main.root),
  };
  let store: Map<string, string> | undefined;
  const bindStore = () => {
    store ??= customXmlStore(editor, main.name);
    return store;
  };

  // Runs for a field's value, given the properties of the run or control it replaces.
  const valueRuns = (
    index: number,
    part: StoryPart,
    properties: Element | undefined,
    placeholder?: { widthEmu: number; heightEmu: number },
  ): Element[] => {
    const field = (plans[index] as (typeof plans)[number]).field;
    const picture = pictures[index];
    const document = part.document;
    switch (field.type) {
      case 'text':
        return [textRun(document, field.value, field.options.keepTextNodeStyles ? properties : undefined)];
      case 'checkbox':
        return [textRun(document, field.value ? '\u2612' : '\u2610', properties)];
      case 'table':
        return [textRun(document, field.value.map((row) => row.join('\t')).join('\n'), properties)];
      case 'image':
      case 'signature':
        if (picture) {
          return [
            pictureRun(placement, part.name, document, picture, {
              dimensions: field.options.dimensions,
              placeholder,
              name: field.id ?? field.group ?? field.type,
            }),
          ];
        }
        return importFragment(
          document,
          deps.signatureTextRunsXml(field.value, properties ? elementXml(properties) : undefined),
        );
    }
  };

  // 1. Tables: rows are added or replaced before text is filled into what remains.
  plans.forEach(({ field, controls: matched, placeholders }, index) => {
    if (field.type !== 'table') return;
    for (const control of matched) {
      if (!isAttached(control.sdt)) continue;
      const target = tableTarget(control.sdt);
      if (target) fillTableRows(target.row, field.value, field.options.copyRowStyle, target.replace);
      else replaceControlContent(control.sdt, valueRuns(index, control.part, controlRunProperties(control.sdt)));
      markChanged(control.part.document);
    }
    if (!placeholders) return;
    for (const part of parts) {
      const rows = new Set<Element>();
      for (const found of findPlaceholders(part.root)) {
        const row = found.name === field.id ? wAncestor(found.paragraph, 'tr') : undefined;
        if (row) rows.add(row);
      }
      for (const row of rows) if (isAttached(row)) fillTableRows(row, field.value, field.options.copyRowStyle, true);
      if (rows.size > 0) markChanged(part.document);
    }
  });

  // 2. Content controls.
  plans.forEach(({ field, controls: matched }, index) => {
    if (field.type === 'table') return;
    for (const control of matched) {
      if (!isAttached(control.sdt)) continue;
      const checkbox = checkboxProperties(control.sdt);
      if (field.type === 'checkbox' && checkbox) fillCheckbox(control.sdt, checkbox, field.value);
      else {
        const extent = existingExtent(controlContent(control.sdt));
        replaceControlContent(control.sdt, valueRuns(index, control.part, controlRunProperties(control.sdt), extent));
      }
      markChanged(control.part.document);
      const binding = dataBindingOf(control.sdt);
      const bound = boundValue(field, pictures[index]);
      if (binding && bound !== undefined) writeBoundValue(editor, bindStore(), binding, bound);
    }
  });

  // 3. Placeholders, paragraph by paragraph, last to first within each.
  const byName = new Map<string, number>();
  plans.forEach(({ field, placeholders }, index) => {
    if (placeholders && field.id !== undefined) byName.set(field.id, index);
  });
  if (byName.size > 0) {
    for (const part of parts) {
      let changed = false;
      for (const paragraph of wDescendants(part.root, 'p')) {
        const found = paragraphPlaceholders(paragraph).filter((placeholder) => byName.has(placeholder.name));
        for (const placeholder of found.reverse()) {
          const index = byName.get(placeholder.name) as number;
          replacePlaceholder(placeholder, (properties) => valueRuns(index, part, properties));
          changed = true;
        }
      }
      if (changed) markChanged(part.document);
    }
  }
  return editor.finish();
}

/** The fields a template offers: tagged controls and placeholder names, in every story part. */
export function discoverFields(bytes: Uint8Array, options: AnnotateOptions = {}): DiscoveredFields {
  const editor = openPackageEditor(bytes, options.limits);
  const { parts } = readStories(editor);
  const controls: DiscoveredFields['controls'] = [];
  const placeholders: string[] = [];
  for (const part of parts) {
    for (const sdt of findControls(part.root)) {
      const keys = controlKeys(sdt);
      controls.push({
        part: part.name,
        id: controlId(keys),
        tag: keys.tag,
        numericId: keys.numericId,
        groups: keys.groups,
        kind: controlKind(sdt),
      });
    }
    for (const found of findPlaceholders(part.root))
      if (!placeholders.includes(found.name)) placeholders.push(found.name);
  }
  return { controls, placeholders };
}

function readStories(editor: PackageEditor): { main: StoryPart; parts: StoryPart[] } {
  const stories = storyParts(editor.opc);
  const parts: StoryPart[] = [];
  for (const name of [stories.main, ...stories.others]) {
    const document = editor.xml(name);
    const root = document?.documentElement;
    if (document && root) parts.push({ name, document, root });
  }
  const main = parts[0];
  if (!main || main.name !== stories.main)
    throw new ApiError('INVALID_DOCUMENT', `The main document part ${stories.main} is empty.`);
  return { main, parts };
}

function controlKind(sdt: Element): ControlKind {
  if (checkboxProperties(sdt)) return 'checkbox';
  if (isPictureControl(sdt)) return 'picture';
  const content = controlContent(sdt);
  return controlLevel(sdt) === 'row' || (content && wDescendants(content, 'tbl').length > 0) ? 'table' : 'text';
}

/** The row a table field's control marks: its own row(s), a table inside it, or the row it sits in. */
function tableTarget(sdt: Element): { row: Element; replace: boolean | undefined } | undefined {
  const content = controlContent(sdt);
  const level = controlLevel(sdt);
  if (level === 'row' && content) {
    const row = wDescendants(content, 'tr')[0];
    if (row) return { row, replace: true };
  }
  const table = content ? wDescendants(content, 'tbl')[0] : undefined;
  if (table) {
    const row = templateRowOf(table);
    return row ? { row, replace: undefined } : undefined;
  }
  const row = wAncestor(sdt, 'tr');
  return row ? { row, replace: true } : undefined;
}

/** What a data-bound control's custom XML node receives (§17.5.2.6). */
function boundValue(field: AnnotateField, picture: PreparedPicture | undefined): string | undefined {
  switch (field.type) {
    case 'text':
      return field.value;
    case 'checkbox':
      return field.value ? 'true' : 'false';
    case 'image':
    case 'signature':
      // A picture control bound to XML holds the image base64-encoded.
      return picture ? base64(picture.media.bytes) : field.value;
    case 'table':
      return undefined;
  }
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

/** The width between the margins of the body's last section (§17.6.13 pgSz, §17.6.11 pgMar). */
function textWidthEmu(root: Element): number {
  const body = wChild(root, 'body');
  const section = body ? wChild(body, 'sectPr') : undefined;
  const width = Number(wAttr(wChild(section, 'pgSz'), 'w'));
  const margins = wChild(section, 'pgMar');
  const left = Number(wAttr(margins, 'left') ?? 0);
  const right = Number(wAttr(margins, 'right') ?? 0);
  const text = width - left - right;
  return Number.isFinite(text) && text > 0 ? Math.round(text * EMU_PER_TWIP) : DEFAULT_TEXT_WIDTH_EMU;
}

function isAttached(node: Node): boolean {
  let current: Node | null = node;
  while (current) {
    if (current.nodeType === 9) return true;
    current = current.parentNode;
  }
  return false;
}
