/** What other features may use of uploads (docs/architecture.md, "Walls"). */
export { containsForeignContent, MAX_INPUT_PIXELS, prepareImageUpload, sniffType, toJpegThumbnail, type SniffedType } from './images';
export { SvgRejectedError, SVG_MAX_BYTES } from './svg-sanitize';
export { sanitizeSvgOffThread } from './images';
export { cardLogoPngFor } from './uploads.service';
export { assertFilesOwned, claimTokenOwnedFiles, NOT_YOUR_FILE, uploadTokenHash } from './file-ownership';
