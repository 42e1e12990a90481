/**
 * What the HTML reader asks of whoever fetches images: every distinct `src` of the document at
 * once (data: URIs, https URLs), answered per source with the decoded image or why there is none.
 * The reader never fetches; the loader owns the caps (count, bytes, time).
 */
import type { ImageResource } from '../../model';

export type LoadedImage = { image: ImageResource } | { problem: string };

export type ImageLoader = (sources: readonly string[]) => Promise<Map<string, LoadedImage>>;
