/**
 * What the HTML reader asks of whoever fetches images: every distinct `src` of the document at
 * once (data: URIs, https URLs), answered per source with the decoded image or why there is none.
 * The reader never fetches; the loader owns the caps (count, bytes, time).
 */
import type { ImageResource } from '../../model';

/**
 * An image's natural size in CSS px when it is not the resource's pixel count: an SVG, drawn as a
 * raster at some zoom. `ratioOnly`: the image has no natural width and height, only their ratio
 * (an SVG whose root gives a viewBox but no width and height, CSS Images 3 §5.2); the reader then
 * sizes it by its container as browsers do (CSS 2.1 §10.3.2).
 */
export interface NaturalSize {
  width: number;
  height: number;
  ratioOnly?: boolean;
}

export type LoadedImage = { image: ImageResource; natural?: NaturalSize } | { problem: string };

export type ImageLoader = (sources: readonly string[]) => Promise<Map<string, LoadedImage>>;
