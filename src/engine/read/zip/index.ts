/**
 * The ZIP container (front door of src/engine/read/zip): the central directory, bounded inflate of
 * entries, and the writer DOCX output and template filling use.
 */
export { canInflateNatively, inflatedLength, inflateExactly } from './native-inflate';
export { DamagedZipError, entryData, listZipEntryNames, readZipDirectory, type ZipEntry } from './zip-directory';
export { type DeflatedEntry, deflateEntry, type ZipOutputEntry, zipEntries } from './zip-writer';
