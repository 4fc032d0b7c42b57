/**
 * NDEF URI records for the cards' NFC chips (issue 22), written from the NFC Forum layout:
 *
 *   record  = header, type length (1), payload length (1 byte short record, else 4), type "U" (0x55), payload
 *   header  = MB (0x80) | ME (0x40) | SR (0x10, payload < 256 bytes) | TNF 0x01 (well-known)  -> 0xD1
 *   payload = URI identifier code (1 byte, a prefix the tag does not store) + the rest of the URI, UTF-8
 *   on the tag: TLV 0x03 (NDEF message), length (1 byte, or 0xFF + 2 bytes from 255), value, then 0xFE
 *
 * Pure code (no Node, no DOM): the server lists it on the job ticket and in the encoder CSV.
 */

/** URI identifier codes (NFC Forum URI Record Type Definition, table 3); index = code. */
const URI_PREFIXES = [
  '',
  'http://www.',
  'https://www.',
  'http://',
  'https://',
  'tel:',
  'mailto:',
  'ftp://anonymous:anonymous@',
  'ftp://ftp.',
  'ftps://',
  'sftp://',
  'smb://',
  'nfs://',
  'ftp://',
  'dav://',
  'news:',
  'telnet://',
  'imap:',
  'rtsp://',
  'urn:',
  'pop:',
  'sip:',
  'sips:',
  'tftp:',
  'btspp://',
  'btl2cap://',
  'btgoep://',
  'tcpobex://',
  'irdaobex://',
  'file://',
  'urn:epc:id:',
  'urn:epc:tag:',
  'urn:epc:pat:',
  'urn:epc:raw:',
  'urn:epc:',
  'urn:nfc:',
] as const;

/** User memory of the NTAG chips we program (bytes available for the NDEF TLV and its terminator). */
export const NTAG_CAPACITY = { ntag213: 144, ntag215: 504 } as const;

/** The longest prefix of the table that starts `uri`: its code and the rest of the URI. */
export function uriPrefix(uri: string): { code: number; rest: string } {
  let best = 0;
  for (let i = 1; i < URI_PREFIXES.length; i++) {
    const p = URI_PREFIXES[i];
    if (uri.startsWith(p) && p.length > URI_PREFIXES[best].length) best = i;
  }
  return { code: best, rest: uri.slice(URI_PREFIXES[best].length) };
}

/** One NDEF message of one URI record (MB and ME set), as its bytes. */
export function ndefUriRecord(uri: string): Uint8Array {
  const { code, rest } = uriPrefix(uri);
  const text = new TextEncoder().encode(rest);
  const payloadLength = 1 + text.length;
  const short = payloadLength < 256;
  const head = short ? [0xd1, 0x01, payloadLength, 0x55] : [0xc1, 0x01, (payloadLength >>> 24) & 0xff, (payloadLength >>> 16) & 0xff, (payloadLength >>> 8) & 0xff, payloadLength & 0xff, 0x55];
  const out = new Uint8Array(head.length + payloadLength);
  out.set(head, 0);
  out[head.length] = code;
  out.set(text, head.length + 1);
  return out;
}

/** The message as a Type 2 tag stores it: NDEF TLV (0x03, length, message) and the terminator TLV (0xFE). */
export function ndefTlv(message: Uint8Array): Uint8Array {
  const len = message.length;
  const head = len < 255 ? [0x03, len] : [0x03, 0xff, (len >>> 8) & 0xff, len & 0xff];
  const out = new Uint8Array(head.length + len + 1);
  out.set(head, 0);
  out.set(message, head.length);
  out[out.length - 1] = 0xfe;
  return out;
}

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0').toUpperCase();
  return s;
}

export interface NdefPayload {
  url: string;
  /** the NDEF message (one URI record), hex */
  recordHex: string;
  recordBytes: number;
  /** what is written to the tag: the TLV-wrapped message and its terminator, hex */
  tlvHex: string;
  /** bytes of tag memory used (the TLV with its terminator) */
  bytes: number;
  fitsNtag213: boolean;
  fitsNtag215: boolean;
}

/** Everything the encoder station and the job ticket need for one URL. */
export function ndefPayload(url: string): NdefPayload {
  const record = ndefUriRecord(url);
  const tlv = ndefTlv(record);
  return {
    url,
    recordHex: toHex(record),
    recordBytes: record.length,
    tlvHex: toHex(tlv),
    bytes: tlv.length,
    fitsNtag213: tlv.length <= NTAG_CAPACITY.ntag213,
    fitsNtag215: tlv.length <= NTAG_CAPACITY.ntag215,
  };
}
