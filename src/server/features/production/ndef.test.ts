import { describe, expect, it } from 'vitest';
import { ndefPayload, ndefTlv, ndefUriRecord, toHex, uriPrefix } from './ndef';

describe('NDEF URI records (worked out by hand from the NFC Forum layout)', () => {
  it('https:// is code 0x04; a short record D1 01 len 55', () => {
    // "a.co/c/AB2" = 61 2E 63 6F 2F 63 2F 41 42 32 (10 bytes) + the code byte = payload 11 (0x0B)
    expect(toHex(ndefUriRecord('https://a.co/c/AB2'))).toBe('D1010B5504612E636F2F632F414232');
    // TLV: 03, length 15 (0x0F), the record, terminator FE
    expect(toHex(ndefTlv(ndefUriRecord('https://a.co/c/AB2')))).toBe('030FD1010B5504612E636F2F632F414232FE');
  });

  it('takes the longest prefix: https://www. is 0x02, tel: is 0x05, an unknown scheme 0x00', () => {
    expect(toHex(ndefUriRecord('https://www.x.io'))).toBe('D101055502782E696F');
    expect(toHex(ndefUriRecord('tel:+1'))).toBe('D1010355052B31');
    expect(uriPrefix('geo:1,2')).toEqual({ code: 0, rest: 'geo:1,2' });
    expect(uriPrefix('http://www.a')).toEqual({ code: 1, rest: 'a' });
  });

  it('a payload over 255 bytes is a long record (C1, 4-byte length) in a 3-byte-length TLV', () => {
    const url = 'https://' + 'a'.repeat(299); // payload 300 = 00 00 01 2C; record 307 = 0x0133
    const rec = ndefUriRecord(url);
    expect(rec.length).toBe(307);
    expect(toHex(rec.slice(0, 8))).toBe('C10100000' + '12C5504');
    const tlv = ndefTlv(rec);
    expect(toHex(tlv.slice(0, 4))).toBe('03FF0133');
    expect(tlv[tlv.length - 1]).toBe(0xfe);
    const p = ndefPayload(url);
    expect(p.bytes).toBe(312);
    expect(p.fitsNtag213).toBe(false);
    expect(p.fitsNtag215).toBe(true);
  });

  it('checks the size against NTAG213 (144 bytes) at the boundary', () => {
    // short record: tag bytes = 2 (TLV head) + 4 (record head) + 1 (code) + rest + 1 (FE) = rest + 8
    expect(ndefPayload('https://' + 'b'.repeat(136)).bytes).toBe(144);
    expect(ndefPayload('https://' + 'b'.repeat(136)).fitsNtag213).toBe(true);
    expect(ndefPayload('https://' + 'b'.repeat(137)).fitsNtag213).toBe(false);
    expect(ndefPayload('https://' + 'b'.repeat(5000)).fitsNtag215).toBe(false);
  });

  it('UTF-8 text counts in bytes', () => {
    expect(toHex(ndefUriRecord('https://é'))).toBe('D1010355' + '04C3A9');
  });
});
