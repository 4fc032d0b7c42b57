import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ndefPayload } from '#server/features/production/ndef';

/**
 * Issue 36: the NFC payload of every batch code, read back by the `ndef` library (an NFC Forum NDEF
 * implementation nobody here wrote) and compared byte for byte with its own encoding of the same URI.
 */
const require = createRequire(import.meta.url);
const ndef = require('ndef') as {
  uriRecord(uri: string): unknown;
  encodeMessage(records: unknown[]): number[];
  decodeMessage(bytes: number[]): Array<{ tnf: number; type: number[] | string; payload: number[]; value?: string }>;
};
const bytes = (hex: string) => [...Buffer.from(hex.replace(/\s+/g, ''), 'hex')];

describe('NDEF through the ndef library', () => {
  it('card code and profile URLs: one URI record, the same bytes as the library, the URL read back', () => {
    const url = fc.webUrl({ withQueryParameters: true, withFragments: false });
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom('https://cards.example.com/c/AB12CD', 'http://www.example.com/p/x', 'https://example.com/'), url), (u) => {
        const p = ndefPayload(u);
        expect(bytes(p.recordHex)).toEqual(ndef.encodeMessage([ndef.uriRecord(u)]));
        const records = ndef.decodeMessage(bytes(p.recordHex));
        expect(records).toHaveLength(1);
        expect(records[0].tnf).toBe(1); // NFC Forum well-known type
        expect(records[0].value).toBe(u);
        // the TLV on the tag: 0x03, the length, the message, the terminator 0xFE
        const tlv = bytes(p.tlvHex);
        expect(tlv[0]).toBe(0x03);
        expect(tlv[tlv.length - 1]).toBe(0xfe);
        expect(p.bytes).toBe(tlv.length);
      }),
      { numRuns: 200 },
    );
  });
});
