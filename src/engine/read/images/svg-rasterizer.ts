/**
 * SVG → PNG, by resvg (@resvg/resvg-wasm: the Rust renderer built for WebAssembly with
 * wasm-bindgen). Used where a raster must stand beside an SVG: the PNG fallback of a DOCX picture
 * (Word 2016+ draws the SVG; older readers and Quire's PDF engine draw the PNG).
 *
 * workerd refuses to compile WebAssembly at run time (TOOLCHAIN.md), so the .wasm is imported as
 * a module (wrangler compiles it at bundle time) and handed to resvg's initWasm, once per isolate:
 * wasm-bindgen's glue keeps one instance in module state and cannot be instantiated again.
 *
 * Bounded: the SVG may have SVG_MAX_BYTES, its natural size at most SVG_MAX_SIDE CSS px a side,
 * and the rendering is scaled to at most RENDER_MAX_SIDE px a side and RENDER_MAX_PIXELS in all,
 * so the pixmap inside the module stays under 16 MB whatever the SVG claims. resvg's own limits
 * refuse documents of more than a million nodes (a `<use>` bomb), and it skips an embedded data:
 * image larger than its decoders allow. resvg fetches nothing: external images and fonts are left
 * out (no system fonts are loaded, so SVG text is not drawn in the PNG; Word draws it from the SVG).
 */
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import resvgModule from '@resvg/resvg-wasm/index_bg.wasm';

/**
 * 1 MiB: signatures and logos are kilobytes. Rendering time grows with the drawing, not the
 * bytes alone, but measured in workerd a 1 MB SVG of 15 000 overlapping translucent paths took
 * 0.2 s to parse and 1.9 s to render at 2000 px, and 4.9 MB of the same took 7–9 s: the cap keeps
 * one picture within seconds of CPU.
 */
export const SVG_MAX_BYTES = 1024 * 1024;
/** 16 384 CSS px ≈ 4.3 m: beyond any page, and beyond Word's 22 in picture size. */
export const SVG_MAX_SIDE = 16_384;
/** The PNG fallback: sharp at twice the natural size, never larger than this a side… */
export const RENDER_MAX_SIDE = 2000;
/** …nor than 4 megapixels (16 MB of RGBA). */
export const RENDER_MAX_PIXELS = 4_000_000;
const RENDER_MAX_ZOOM = 2;

export interface RenderedSvg {
  /** Natural size in CSS px: the root's width and height, else its viewBox (SVG 2 §8.2), else 100 × 100. */
  width: number;
  height: number;
  /** The rendering, RGBA PNG. */
  png: Uint8Array;
  pngWidth: number;
  pngHeight: number;
}

export type SvgResult = { svg: RenderedSvg } | { problem: string };

let ready: Promise<void> | undefined;

function initialise(): Promise<void> {
  ready ??= initWasm(resvgModule).catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  return ready;
}

/**
 * An SVG document by its content: after an optional BOM, whitespace, XML declaration, comments
 * and DOCTYPE, the root element is `svg` (any prefix). A file name or declared type proves nothing.
 */
export function isSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, '');
  return /^(?:\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE\s[^>[]*(?:\[[\s\S]*?\])?\s*>)*<(?:[A-Za-z_][\w.-]*:)?svg[\s/>]/i.test(
    head,
  );
}

function message(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * Whether the SVG, used as an image, has only a ratio and no natural size: its root gives a
 * viewBox and neither a width nor a height other than a percentage (SVG 2 §8.2). A browser then
 * sizes it by its container (CSS Images 3 §5.2, CSS 2.1 §10.3.2), not by the viewBox's numbers
 * resvg falls back to.
 */
export function svgHasRatioOnly(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 8192));
  const root = ` ${/<(?:[A-Za-z_][\w.-]*:)?svg(\s[^>]*)?>/i.exec(head)?.[1] ?? ''}`;
  const value = (name: string) => {
    const found = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(root);
    return (found?.[1] ?? found?.[2] ?? '').trim();
  };
  const absolute = (name: string) => {
    const text = value(name);
    return text !== '' && !text.endsWith('%') && Number.parseFloat(text) > 0;
  };
  const box = value('viewBox')
    .split(/[\s,]+/)
    .map(Number);
  const hasRatio = box.length === 4 && (box[2] as number) > 0 && (box[3] as number) > 0;
  return hasRatio && !absolute('width') && !absolute('height');
}

export interface SvgRenderOptions {
  /** Pixels wanted on the rendering's long side, for an SVG drawn larger than its natural size
   * (2× that size otherwise); still capped by RENDER_MAX_SIDE and RENDER_MAX_PIXELS. */
  longSide?: number;
}

export async function renderSvg(bytes: Uint8Array, options: SvgRenderOptions = {}): Promise<SvgResult> {
  if (bytes.length > SVG_MAX_BYTES) {
    return { problem: `the SVG is ${bytes.length} bytes, more than the ${SVG_MAX_BYTES} bytes an SVG may have` };
  }
  await initialise();
  let sized: InstanceType<typeof Resvg> | undefined;
  let scaled: InstanceType<typeof Resvg> | undefined;
  try {
    // fontBuffers: [] keeps resvg from looking for system fonts (there are none in workerd).
    const font = { fontBuffers: [] as Uint8Array[], loadSystemFonts: false };
    try {
      sized = new Resvg(bytes, { font });
    } catch (error) {
      return { problem: `the SVG could not be read (${message(error)})` };
    }
    const { width, height } = sized;
    if (!(width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height))) {
      return { problem: 'the SVG has no size' };
    }
    if (width > SVG_MAX_SIDE || height > SVG_MAX_SIDE) {
      return {
        problem: `the SVG is ${Math.round(width)} × ${Math.round(height)} px, more than ${SVG_MAX_SIDE} px a side`,
      };
    }
    const zoom = Math.min(
      Math.max(RENDER_MAX_ZOOM, (options.longSide ?? 0) / Math.max(width, height)),
      RENDER_MAX_SIDE / Math.max(width, height),
      Math.sqrt(RENDER_MAX_PIXELS / (width * height)),
    );
    if (Math.round(width * zoom) < 1 || Math.round(height * zoom) < 1) {
      return { problem: `the SVG is ${width} × ${height} px, too thin to draw` };
    }
    scaled = new Resvg(bytes, { font, fitTo: { mode: 'zoom', value: zoom } });
    const rendered = scaled.render();
    try {
      return {
        svg: {
          width,
          height,
          png: rendered.asPng(),
          pngWidth: rendered.width,
          pngHeight: rendered.height,
        },
      };
    } finally {
      rendered.free();
    }
  } catch (error) {
    return { problem: `the SVG could not be drawn (${message(error)})` };
  } finally {
    sized?.free();
    scaled?.free();
  }
}
