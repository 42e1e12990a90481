import type { PackageLimits } from '../../engine';
import { annotateDocx } from './annotate-docx';
import type { AnnotateField } from './annotate-types';
import { pictureExtentEmu } from './picture-extent';
import { createPictureLoader, isImageValue } from './picture-loader';
import { pictureXml } from './picture-xml';
import { signatureTextRunsXml } from './signature-text';

export interface FillOptions {
  /** Plain http: image URLs (development only, as for document.url). */
  allowHttp: boolean;
  /** Bytes one image may have (the document limit). */
  maxImageBytes: number;
  /** Bytes the template's parts may inflate to (zip bombs; src/limits.ts). */
  limits: PackageLimits;
}

/** Fills a DOCX template: the template editor wired to the picture side (docs/api.md "POST /v1/annotate"). */
export function fillTemplate(bytes: Uint8Array, fields: AnnotateField[], options: FillOptions): Promise<Uint8Array> {
  return annotateDocx(
    bytes,
    fields,
    {
      loadPicture: createPictureLoader({ allowHttp: options.allowHttp, maxBytes: options.maxImageBytes }),
      pictureXml,
      pictureExtentEmu,
      signatureTextRunsXml,
      isImageValue,
    },
    { limits: options.limits },
  );
}
