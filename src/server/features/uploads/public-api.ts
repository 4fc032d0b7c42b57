/** What other features may use of uploads (docs/architecture.md, "Walls"). Image sniffing and
 * re-encoding, SVG sanitizing and file ownership are infrastructure (`server/infra/images`,
 * `server/infra/svg`, `server/infra/file-ownership.ts`), imported from there. */
export { cardLogoPngFor } from './uploads.service';
