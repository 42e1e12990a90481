/**
 * Template filling (front door of src/services/annotate): the request schema and the filler that
 * edits a DOCX package in place.
 */
export { AnnotateBodySchema, AnnotateQuerySchema } from './annotate-request';
export { fillTemplate } from './fill-template';
