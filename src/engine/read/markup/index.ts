/**
 * The Word-like styles Markdown and HTML are set in (front door of src/engine/read/markup).
 */
export {
  CHARACTER_STYLES,
  MARKUP_STYLES_XML,
  markupStyleCascade,
  PARAGRAPH_STYLES,
  TABLE_STYLE,
} from './markup-styles';
