import type { Alignment, Border, LineRule, ParagraphFrame, ParagraphProperties, TabStop } from '../../model';
import { effectiveChildren } from './markup-compatibility';
import { readShading } from './run-properties';
import type { ThemeColors } from './theme-colors';
import {
  BORDER_SPACE,
  BORDER_WIDTH,
  clamp,
  EXTENT,
  eighthPoints,
  hexColor,
  integer,
  LINE_MULTIPLE,
  measure,
  OFFSET,
  onOff,
  points,
  twips,
} from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * Paragraph properties as one level of the cascade states them (w:pPr, ECMA-376 Part 1 §17.3.1):
 * only what the level sets is present; `null` explicitly removes (a border "none", shading "nil",
 * outline level 9 = body text).
 */
export interface ParagraphDelta {
  styleId?: string;
  numbering?: NumberingReference;
  /** The raw w:jc value; turned into the model's alignment once direction is known. */
  justification?: string;
  left?: number;
  right?: number;
  /** Positive: first-line indent; negative: hanging. */
  firstLine?: number;
  before?: number;
  after?: number;
  beforeAutospacing?: boolean;
  afterAutospacing?: boolean;
  line?: number;
  lineRule?: LineRule;
  /** Tab stops set or cleared at this level, applied in order over the lower levels' (§17.3.1.38). */
  tabs?: TabChange[];
  keepNext?: boolean;
  keepLines?: boolean;
  widowControl?: boolean;
  pageBreakBefore?: boolean;
  contextualSpacing?: boolean;
  snapToGrid?: boolean;
  autoSpaceDE?: boolean;
  autoSpaceDN?: boolean;
  rtl?: boolean;
  borders?: Partial<Record<BorderSide, Border | null>>;
  shading?: string | null;
  outlineLevel?: number | null;
  /** w:framePr: a level's frame replaces a lower level's whole (§17.3.1.11). */
  frame?: ParagraphFrame;
}

export interface NumberingReference {
  /** "0" removes numbering inherited from a style (§17.9.18). */
  numId?: string;
  level?: number;
}

export type TabChange = TabStop | { position: number; clear: true };
type BorderSide = 'top' | 'bottom' | 'left' | 'right' | 'between';

/**
 * Autospacing (HTML-style "auto" space before/after) ignores the value written; §17.3.1.33 leaves
 * the amount to the application, and Word uses 14 pt.
 */
export const AUTOSPACING = 14;

/** An auto line height is in 240ths of a single line (§17.3.1.33). */
const LINE_UNITS = 240;

const TAB_ALIGN: Record<string, TabStop['align']> = {
  left: 'left',
  start: 'left',
  center: 'center',
  right: 'right',
  end: 'right',
  decimal: 'decimal',
  bar: 'bar',
  num: 'left',
};

const TAB_LEADER: Record<string, TabStop['leader']> = {
  none: 'none',
  dot: 'dot',
  hyphen: 'hyphen',
  underscore: 'underscore',
  heavy: 'heavy',
  middleDot: 'middleDot',
};

/** On/off paragraph properties (§17.17.4 ST_OnOff) and the delta field each sets. */
type OnOffField =
  | 'keepNext'
  | 'keepLines'
  | 'widowControl'
  | 'pageBreakBefore'
  | 'contextualSpacing'
  | 'snapToGrid'
  | 'autoSpaceDE'
  | 'autoSpaceDN'
  | 'rtl';
const ON_OFF: ReadonlyMap<string, OnOffField> = new Map([
  ['w:keepNext', 'keepNext'],
  ['w:keepLines', 'keepLines'],
  ['w:widowControl', 'widowControl'],
  ['w:pageBreakBefore', 'pageBreakBefore'],
  ['w:contextualSpacing', 'contextualSpacing'],
  ['w:snapToGrid', 'snapToGrid'],
  ['w:autoSpaceDE', 'autoSpaceDE'],
  ['w:autoSpaceDN', 'autoSpaceDN'],
  ['w:bidi', 'rtl'],
]);

/** Reads one w:pPr; w:rPr, w:sectPr and w:pPrChange inside it belong to the paragraph reader. */
export function readParagraphDelta(pPr: XmlElement | undefined, colors: ThemeColors): ParagraphDelta {
  const delta: ParagraphDelta = {};
  if (pPr === undefined) return delta;
  // Indexed, not for…of (its iterator showed among the reader's allocations).
  const properties = effectiveChildren(pPr);
  for (let i = 0; i < properties.length; i++) {
    const property = properties[i] as XmlElement;
    const attributes = property.attributes;
    switch (property.name) {
      case 'w:pStyle':
        if (attributes['w:val']) delta.styleId = attributes['w:val'];
        break;
      case 'w:numPr': {
        const numId = child(property, 'w:numId')?.attributes['w:val'];
        const level = integer(child(property, 'w:ilvl')?.attributes['w:val']);
        const numbering: NumberingReference = {};
        if (numId !== undefined) numbering.numId = numId;
        if (level !== undefined) numbering.level = Math.max(0, Math.min(8, level));
        delta.numbering = numbering;
        break;
      }
      case 'w:jc':
        if (attributes['w:val']) delta.justification = attributes['w:val'];
        break;
      case 'w:ind':
        readIndentation(attributes, delta);
        break;
      case 'w:spacing':
        readSpacing(attributes, delta);
        break;
      case 'w:tabs':
        delta.tabs = readTabs(property);
        break;
      case 'w:pBdr':
        delta.borders = readBorders(property, colors);
        break;
      case 'w:shd': {
        const shading = readShading(property, colors);
        if (shading !== undefined) delta.shading = shading;
        break;
      }
      case 'w:framePr':
        delta.frame = readFrame(attributes);
        break;
      case 'w:outlineLvl': {
        const level = integer(attributes['w:val']);
        if (level !== undefined) delta.outlineLevel = level >= 0 && level <= 8 ? level : null;
        break;
      }
      default: {
        const flag = ON_OFF.get(property.name);
        if (flag) delta[flag] = onOff(attributes['w:val']);
      }
    }
  }
  return delta;
}

const FRAME_X_ALIGN: Record<string, ParagraphFrame['x']['align']> = {
  left: 'left',
  center: 'center',
  right: 'right',
  inside: 'inside',
  outside: 'outside',
};
const FRAME_Y_ALIGN: Record<string, ParagraphFrame['y']['align']> = {
  top: 'top',
  center: 'center',
  bottom: 'bottom',
  inside: 'inside',
  outside: 'outside',
};
const FRAME_WRAP: Record<string, ParagraphFrame['wrap']> = {
  auto: 'auto',
  notBeside: 'notBeside',
  around: 'around',
  tight: 'tight',
  through: 'through',
  none: 'none',
};

/** ST_HAnchor / ST_VAnchor (§17.18.35, §17.18.100): page when unset. */
function frameAnchor(value: string | undefined): 'page' | 'margin' | 'text' {
  return value === 'margin' || value === 'text' ? value : 'page';
}

/**
 * w:framePr (§17.3.1.11), in points. An alignment (xAlign, yAlign) wins over the offset (x, y);
 * yAlign "inline" places the frame where the text is, as no alignment does.
 */
function readFrame(attributes: Readonly<Record<string, string>>): ParagraphFrame {
  const frame: ParagraphFrame = {
    heightRule: 'auto',
    x: { from: frameAnchor(attributes['w:hAnchor']), offset: clamp(twips(attributes['w:x']), OFFSET) ?? 0 },
    y: { from: frameAnchor(attributes['w:vAnchor']), offset: clamp(twips(attributes['w:y']), OFFSET) ?? 0 },
    wrap: FRAME_WRAP[attributes['w:wrap'] ?? 'auto'] ?? 'auto',
    distance: {
      horizontal: clamp(twips(attributes['w:hSpace']), EXTENT) ?? 0,
      vertical: clamp(twips(attributes['w:vSpace']), EXTENT) ?? 0,
    },
  };
  const width = clamp(twips(attributes['w:w']), EXTENT);
  if (width !== undefined && width > 0) frame.width = width;
  const height = clamp(twips(attributes['w:h']), EXTENT);
  const rule = attributes['w:hRule'];
  if (height !== undefined && height > 0) {
    frame.height = height;
    frame.heightRule = rule === 'exact' ? 'exact' : rule === 'auto' ? 'auto' : 'atLeast';
  }
  const xAlign = FRAME_X_ALIGN[attributes['w:xAlign'] ?? ''];
  if (xAlign) frame.x.align = xAlign;
  const yAlign = FRAME_Y_ALIGN[attributes['w:yAlign'] ?? ''];
  if (yAlign) frame.y.align = yAlign;
  const dropCap = attributes['w:dropCap'];
  if (dropCap === 'drop' || dropCap === 'margin') {
    frame.dropCap = { kind: dropCap, lines: Math.max(1, Math.min(10, integer(attributes['w:lines']) ?? 1)) };
  }
  return frame;
}

/**
 * w:ind (§17.3.1.12): start/end are the Strict (and 2010+) names of left/right; hanging wins over
 * firstLine when both are given at one level. Each within ±22 in, as Word takes them (units.ts OFFSET).
 */
function readIndentation(attributes: Readonly<Record<string, string>>, delta: ParagraphDelta): void {
  const left = clamp(twips(attributes['w:start'] ?? attributes['w:left']), OFFSET);
  const right = clamp(twips(attributes['w:end'] ?? attributes['w:right']), OFFSET);
  const hanging = clamp(twips(attributes['w:hanging']), OFFSET);
  const firstLine = clamp(twips(attributes['w:firstLine']), OFFSET);
  if (left !== undefined) delta.left = left;
  if (right !== undefined) delta.right = right;
  if (hanging !== undefined) delta.firstLine = -hanging;
  else if (firstLine !== undefined) delta.firstLine = firstLine;
}

/**
 * w:spacing (§17.3.1.33): before/after in twips; line in 240ths of a line when lineRule is auto
 * (the default), else twips (exact or at-least). Within Word's bounds: 0 to 22 in, and 132 lines.
 */
function readSpacing(attributes: Readonly<Record<string, string>>, delta: ParagraphDelta): void {
  const before = clamp(twips(attributes['w:before']), EXTENT);
  const after = clamp(twips(attributes['w:after']), EXTENT);
  if (before !== undefined) delta.before = before;
  if (after !== undefined) delta.after = after;
  // A level that gives the space as a length turns automatic spacing off unless it says otherwise:
  // in Word the two are one setting ("Auto" or a size), so direct w:before="0" under Normal (Web),
  // whose style spacing is automatic, leaves no space (Word writes no w:beforeAutospacing="0" then).
  if (attributes['w:beforeAutospacing'] !== undefined) {
    delta.beforeAutospacing = onOff(attributes['w:beforeAutospacing']);
  } else if (before !== undefined) delta.beforeAutospacing = false;
  if (attributes['w:afterAutospacing'] !== undefined) {
    delta.afterAutospacing = onOff(attributes['w:afterAutospacing']);
  } else if (after !== undefined) delta.afterAutospacing = false;
  const rawLine = attributes['w:line'];
  if (rawLine !== undefined) {
    const rule = attributes['w:lineRule'];
    const lineRule: LineRule = rule === 'exact' ? 'exact' : rule === 'atLeast' ? 'atLeast' : 'auto';
    const value = lineRule === 'auto' ? measure(rawLine, LINE_UNITS) : twips(rawLine);
    if (value !== undefined) {
      delta.line = clamp(Math.abs(value), lineRule === 'auto' ? LINE_MULTIPLE : EXTENT) as number;
      delta.lineRule = lineRule;
    }
  }
}

function readTabs(tabs: XmlElement): TabChange[] {
  const changes: TabChange[] = [];
  for (const tab of tabs.children) {
    if (tab.name !== 'w:tab') continue;
    // A stop within ±22 in (§17.3.1.37): one at 2^31 twips drew a leader of billions of dots.
    const position = clamp(twips(tab.attributes['w:pos']), OFFSET);
    if (position === undefined) continue;
    const kind = tab.attributes['w:val'] ?? 'left';
    if (kind === 'clear') {
      changes.push({ position, clear: true });
      continue;
    }
    changes.push({
      position,
      align: TAB_ALIGN[kind] ?? 'left',
      leader: TAB_LEADER[tab.attributes['w:leader'] ?? 'none'] ?? 'none',
    });
  }
  return changes;
}

/** w:pBdr sides (§17.3.1.24); widths in eighths of a point, space in points. */
function readBorders(pBdr: XmlElement, colors: ThemeColors): Partial<Record<BorderSide, Border | null>> {
  const borders: Partial<Record<BorderSide, Border | null>> = {};
  for (const side of pBdr.children) {
    const name = side.name.slice(2);
    const key: BorderSide | undefined =
      name === 'top' || name === 'bottom' || name === 'between'
        ? name
        : name === 'left' || name === 'start'
          ? 'left'
          : name === 'right' || name === 'end'
            ? 'right'
            : undefined;
    if (key === undefined) continue;
    borders[key] = readBorder(side, colors);
  }
  return borders;
}

/** One border (CT_Border, §17.3.4); null for "none"/"nil" (§17.18.2), which removes a lower level's. */
export function readBorder(border: XmlElement, _colors: ThemeColors): Border | null {
  const style = border.attributes['w:val'] ?? 'none';
  if (style === 'none' || style === 'nil') return null;
  // A border with no width is drawn at the minimum of 1/4 pt (ST_EighthPointMeasure minimum 2).
  const width = clamp(eighthPoints(border.attributes['w:sz']) ?? 0.5, BORDER_WIDTH) as number;
  const result: Border = { style, width, space: clamp(points(border.attributes['w:space']), BORDER_SPACE) ?? 0 };
  const color = hexColor(border.attributes['w:color']);
  if (color) result.color = color;
  return result;
}

/** Merges `over` onto `base`: later levels win; tab changes accumulate; border sides merge. */
export function mergeParagraphDelta(base: ParagraphDelta, over: ParagraphDelta): ParagraphDelta {
  const merged: ParagraphDelta = { ...base, ...over };
  if (base.tabs && over.tabs) merged.tabs = [...base.tabs, ...over.tabs];
  if (base.borders && over.borders) merged.borders = { ...base.borders, ...over.borders };
  return merged;
}

/**
 * The model's paragraph properties from a fully merged delta; what no level sets takes Word's
 * defaults (single spacing, no indents or space, left aligned).
 */
export function toParagraphProperties(delta: ParagraphDelta): ParagraphProperties {
  const rtl = delta.rtl ?? false;
  const properties: ParagraphProperties = {
    align: alignment(delta.justification, rtl),
    indent: { left: delta.left ?? 0, right: delta.right ?? 0, firstLine: delta.firstLine ?? 0 },
    spacing: {
      before: delta.beforeAutospacing ? AUTOSPACING : (delta.before ?? 0),
      after: delta.afterAutospacing ? AUTOSPACING : (delta.after ?? 0),
      line: delta.line ?? 1,
      lineRule: delta.lineRule ?? 'auto',
    },
    tabs: resolveTabs(delta.tabs),
    keepNext: delta.keepNext ?? false,
    keepLines: delta.keepLines ?? false,
    // Word writes <w:widowControl w:val="0"/> to turn it off and nothing when it is on: absent
    // everywhere means on, as in Word (the schema's "off" default is not what Word does).
    widowControl: delta.widowControl ?? true,
    pageBreakBefore: delta.pageBreakBefore ?? false,
    contextualSpacing: delta.contextualSpacing ?? false,
    borders: {},
    rtl,
  };
  // Layout treats automatic spacing apart (none above the paragraph at the top of a page).
  if (delta.beforeAutospacing) properties.spacing.beforeAuto = true;
  if (delta.afterAutospacing) properties.spacing.afterAuto = true;
  if (delta.styleId !== undefined) properties.styleId = delta.styleId;
  if (delta.borders) {
    for (const [side, border] of Object.entries(delta.borders)) {
      if (border) properties.borders[side as BorderSide] = border;
    }
  }
  if (delta.shading) properties.shading = delta.shading;
  if (delta.outlineLevel !== undefined && delta.outlineLevel !== null) properties.outlineLevel = delta.outlineLevel;
  if (delta.snapToGrid === false) properties.snapToGrid = false;
  if (delta.autoSpaceDE === false) properties.autoSpaceLatin = false;
  if (delta.autoSpaceDN === false) properties.autoSpaceDigits = false;
  if (delta.frame) properties.frame = delta.frame;
  return properties;
}

/**
 * ST_Jc (§17.18.44). Word treats "left"/"right" in a right-to-left paragraph as the leading and
 * trailing edges (the Transitional meaning of "start"/"end"), so they swap there.
 */
function alignment(value: string | undefined, rtl: boolean): Alignment {
  switch (value) {
    case 'center':
      return 'center';
    case 'both':
    case 'mediumKashida':
    case 'highKashida':
    case 'lowKashida':
      return 'both';
    case 'distribute':
    case 'thaiDistribute':
      return 'distribute';
    case 'right':
    case 'end':
      return rtl ? 'left' : 'right';
    default:
      return rtl ? 'right' : 'left';
  }
}

/**
 * Word keeps at most 64 custom tab stops in a paragraph (§17.3.1.37 sets no bound). Layout looks
 * through them for every tab character, so a paragraph of 40,000 stops and as many tabs took
 * seconds, and the XML cap allows a million of each.
 */
const MAX_TAB_STOPS = 64;

/** The tab stops the changes of every level leave, left to right, the first 64. */
function resolveTabs(changes: TabChange[] | undefined): TabStop[] {
  if (changes === undefined || changes.length === 0) return [];
  const stops = new Map<number, TabStop>();
  for (const change of changes) {
    const key = Math.round(change.position * 20);
    if ('clear' in change) stops.delete(key);
    else stops.set(key, change);
  }
  return [...stops.values()].sort((a, b) => a.position - b.position).slice(0, MAX_TAB_STOPS);
}

/** The paragraph properties before a tracked change (w:pPrChange/w:pPr, §17.13.5.29). */
export function previousParagraphProperties(pPr: XmlElement | undefined): XmlElement | undefined {
  return child(child(pPr, 'w:pPrChange'), 'w:pPr');
}
