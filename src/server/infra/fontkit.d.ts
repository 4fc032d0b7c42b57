/** fontkit (pdfkit's font parser, decision 36-03 and pdf-fonts.ts) ships no types: what we call of it. */
declare module 'fontkit' {
  export function create(buffer: Uint8Array, postscriptName?: string): { layout(text: string): unknown };
}
