/**
 * EMF or WMF bytes → a MetafilePicture, or a reason it cannot be drawn. Never throws: a record
 * that reads out of range (DataView) costs the picture, not the document.
 */

import type { MetafilePicture } from '../../model';
import type { PixelBudget } from '../images';
import { isEmf, readEmf } from './emf-reader';
import { isWmf, readWmf } from './wmf-reader';

export type MetafileRead = { picture: MetafilePicture; warnings: string[] } | { problem: string };

export function isMetafile(bytes: Uint8Array): boolean {
  return isEmf(bytes) || isWmf(bytes);
}

export function readMetafile(bytes: Uint8Array, pixels?: PixelBudget): MetafileRead {
  const warnings: string[] = [];
  const warn = (message: string) => {
    if (warnings.length < 5) warnings.push(message);
  };
  const format = isEmf(bytes) ? 'EMF' : 'WMF';
  try {
    const picture = format === 'EMF' ? readEmf(bytes, warn, pixels) : readWmf(bytes, warn, pixels);
    if (!picture) return { problem: `the ${format} picture ${warnings[0] ?? 'is not a metafile'}` };
    return { picture, warnings: warnings.map((w) => `the ${format} picture is partly drawn: ${w}`) };
  } catch {
    return { problem: `the ${format} picture is damaged` };
  }
}
