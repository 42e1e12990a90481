/**
 * Data-bound content controls (§17.5.2.6 w:dataBinding): the control shows a node of a custom XML
 * part (Part 1 §22.5, customXml/itemN.xml), named by w:storeItemID (the ds:itemID of the part's
 * properties, §22.5.2.1) and an XPath with its prefix mappings. Word reads the bound node when it
 * opens the file and overwrites the control's content with it, so a fill must write the value
 * there too. The XPaths Word writes are simple absolute paths (/ns0:root[1]/ns0:name[1]); those
 * are resolved here. One that is not (functions, axes, other predicates) leaves the custom XML
 * alone: the control's content is still filled.
 */
import { relationshipKind } from '../../engine';
import { type Document, type Element, elementChildren, wAttr, wChild } from './ooxml-dom';
import { markChanged, type PackageEditor } from './package-editor';

const DATASTORE_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/customXml';

export interface DataBinding {
  xpath: string;
  storeItemId: string | undefined;
  prefixMappings: string;
}

export function dataBindingOf(sdt: Element): DataBinding | undefined {
  const binding = wChild(wChild(sdt, 'sdtPr'), 'dataBinding');
  const xpath = wAttr(binding, 'xpath');
  if (!binding || !xpath) return undefined;
  return { xpath, storeItemId: wAttr(binding, 'storeItemID'), prefixMappings: wAttr(binding, 'prefixMappings') ?? '' };
}

/** The custom XML parts by their ds:itemID (upper-cased), found through relationships. */
export function customXmlStore(editor: PackageEditor, mainPart: string): Map<string, string> {
  const store = new Map<string, string>();
  const items = new Set<string>();
  for (const relationship of editor.opc.relationships(mainPart)) {
    if (!relationship.external && relationshipKind(relationship) === 'customXml') items.add(relationship.target);
  }
  // Some writers relate the items only from the package; their properties part names them.
  for (const name of editor.partNames())
    if (/^customXml\/item[^/]*\.xml$/i.test(name) && !/props/i.test(name)) items.add(name);
  for (const item of items) {
    const props = editor.opc
      .relationships(item)
      .find((relationship) => relationshipKind(relationship) === 'customXmlProps');
    if (!props || !editor.opc.hasPart(props.target)) continue;
    const root = editor.xml(props.target)?.documentElement;
    const id = root?.getAttributeNS(DATASTORE_NS, 'itemID');
    if (id) store.set(id.toUpperCase(), item);
  }
  return store;
}

/** Writes `value` at the binding's node; false when the part or the node cannot be found. */
export function writeBoundValue(
  editor: PackageEditor,
  store: Map<string, string>,
  binding: DataBinding,
  value: string,
): boolean {
  const candidates = binding.storeItemId ? [store.get(binding.storeItemId.toUpperCase())] : [...store.values()];
  for (const partName of candidates) {
    if (partName === undefined) continue;
    const document = editor.xml(partName);
    if (!document) continue;
    if (setAtPath(document, binding.xpath, prefixMap(binding.prefixMappings), value)) {
      markChanged(document);
      return true;
    }
  }
  return false;
}

function prefixMap(mappings: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const match of mappings.matchAll(/xmlns:([\w.-]+)\s*=\s*(['"])(.*?)\2/g))
    map.set(match[1] as string, match[3] as string);
  return map;
}

const STEP = /^(?:([\w.-]+):)?([\w.-]+)(?:\[(\d+)\])?$/;

function setAtPath(document: Document, xpath: string, prefixes: Map<string, string>, value: string): boolean {
  if (!xpath.startsWith('/') || xpath.startsWith('//')) return false;
  const steps = xpath.slice(1).split('/');
  let current: Element | undefined;
  for (const [index, step] of steps.entries()) {
    const attribute = step.startsWith('@') && index === steps.length - 1 && current !== undefined;
    const match = STEP.exec(attribute ? step.slice(1) : step);
    if (!match) return false;
    const [, prefix, local, position] = match;
    const namespace = prefix === undefined ? null : prefixes.get(prefix);
    if (namespace === undefined) return false;
    if (attribute && current) {
      if (namespace === null) current.setAttribute(local as string, value);
      else current.setAttributeNS(namespace, `${prefix}:${local}`, value);
      return true;
    }
    const candidates = current ? elementChildren(current) : document.documentElement ? [document.documentElement] : [];
    const matching = candidates.filter(
      (element) => element.localName === local && (element.namespaceURI ?? null) === namespace,
    );
    current = matching[Number(position ?? '1') - 1];
    if (!current) return false;
  }
  if (!current) return false;
  while (current.firstChild) current.removeChild(current.firstChild);
  current.appendChild(document.createTextNode(value));
  return true;
}
