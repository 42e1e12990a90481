/**
 * Template filling (front door of src/services/annotate): the request schema and the filler that
 * edits a DOCX package in place; the package editor and DOM helpers, which the merge service
 * (src/services/merge) edits packages with too.
 */
export { AnnotateBodySchema, AnnotateQuerySchema } from './annotate-request';
export { fillTemplate } from './fill-template';
export {
  createW,
  type Document,
  descendants,
  type Element,
  elementChildren,
  elementXml,
  isElement,
  isW,
  R_NS,
  removeNode,
  serializePartXml,
  setWAttr,
  W_NS,
  wAttr,
  wChild,
  wChildren,
  wDescendants,
} from './ooxml-dom';
export { markChanged, openPackageEditor, type PackageEditor } from './package-editor';
export { storyParts } from './part-discovery';
