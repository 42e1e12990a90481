/**
 * WMF and EMF pictures (front door of src/engine/read/metafile): records replayed onto a bounded
 * canvas of model items ([MS-WMF], [MS-EMF]).
 */
export { isMetafile, readMetafile } from './read-metafile';
