// Minimal types for the `vcf` vCard parser (used by tests to read our contact files back).
declare module 'vcf' {
  class vCard {
    version: string;
    data: Record<string, unknown>;
    parse(text: string): vCard;
    get(name: string): unknown;
  }
  export default vCard;
}
