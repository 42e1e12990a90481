/**
 * Markdown → HTML (front door of src/engine/read/markdown): markdown-it with front matter, task lists,
 * autolinks and a nesting cap; the HTML reader takes it from there.
 */
export { renderMarkdown } from './markdown-renderer';
