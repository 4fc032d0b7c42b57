import sharp from 'sharp';
import { HttpError } from '#server/http/http-errors';
import { svgToPng } from '#server/infra/images/resvg';
import { asBuffer } from '#server/infra/worker-pool';
import type { ApplePassContent } from './pass-content';
import type { AppleWalletKeys } from './wallet.config';

/**
 * The Apple Wallet pass, made on the worker pool (src/server/worker.ts): the photo's thumbnail
 * (sharp), the brand's icon and logo (drawn once per worker), the manifest's SHA-1 hashes and the
 * PKCS#7 signature (node-forge, RSA in JavaScript) are CPU work that stays off the request thread.
 */

/** Our mark (the favicon's metal card) on black: the icon Wallet shows in notifications and lists. */
const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="#111111"/><rect width="28" height="18" x="2" y="7" rx="2.5" fill="none" stroke="#d4af37" stroke-width="1.5"/><rect x="19" y="11" width="8" height="8" fill="#d4af37"/><rect x="5" y="12" width="11" height="2" fill="#e5e5e5"/><rect x="5" y="16" width="7" height="1.5" fill="#9ca3af"/></svg>`;
/** The logo beside the pass's top-left text: the card mark alone, transparent around it. */
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 20"><rect width="32" height="20" rx="3" fill="#111111"/><rect width="30" height="18" x="1" y="1" rx="2.5" fill="none" stroke="#d4af37" stroke-width="1.5"/><rect x="20" y="5" width="8" height="8" fill="#d4af37"/><rect x="4" y="6" width="12" height="2" fill="#e5e5e5"/><rect x="4" y="10" width="8" height="1.5" fill="#9ca3af"/></svg>`;

function png(svg: string, width: number): Buffer {
  return svgToPng(svg, { fitTo: { mode: 'width', value: width }, font: { loadSystemFonts: false }, logLevel: 'off' });
}

let brandImages: Record<string, Buffer> | null = null;

/** icon.png is required by Wallet; sizes are Apple's (points x 1, 2, 3). */
function brandFiles(): Record<string, Buffer> {
  brandImages ??= {
    'icon.png': png(ICON_SVG, 29),
    'icon@2x.png': png(ICON_SVG, 58),
    'icon@3x.png': png(ICON_SVG, 87),
    'logo.png': png(LOGO_SVG, 48),
    'logo@2x.png': png(LOGO_SVG, 96),
    'logo@3x.png': png(LOGO_SVG, 144),
  };
  return brandImages;
}

/** The profile photo as the generic pass's thumbnail (90 x 90 points, square crop), PNG. */
async function thumbnailFiles(photo: Uint8Array | null): Promise<Record<string, Buffer>> {
  if (!photo?.length) return {};
  const input = asBuffer(photo);
  const out: Record<string, Buffer> = {};
  try {
    for (const [name, size] of [['thumbnail.png', 90], ['thumbnail@2x.png', 180], ['thumbnail@3x.png', 270]] as const) {
      out[name] = await sharp(input, { limitInputPixels: 40_000_000, failOn: 'error', pages: 1 }).rotate().resize({ width: size, height: size, fit: 'cover' }).png().toBuffer();
    }
  } catch {
    // a photo that cannot be read leaves the pass without one (it was re-encoded at upload)
    return {};
  }
  return out;
}

export interface ApplePassTaskInput {
  content: ApplePassContent;
  photo: Uint8Array | null;
  keys: AppleWalletKeys;
}

export async function applePassTask(arg: ApplePassTaskInput): Promise<Buffer> {
  // loaded on first use: a warm worker that never signs a pass does not carry it (idle RSS)
  const { PKPass, PassType } = await import('passkit-generator');
  const { content, keys } = arg;
  const pass = new PKPass(
    { ...brandFiles(), ...(await thumbnailFiles(arg.photo)) },
    { wwdr: keys.wwdr, signerCert: keys.signerCert, signerKey: keys.signerKey },
    {
      formatVersion: 1,
      passTypeIdentifier: keys.passTypeId,
      teamIdentifier: keys.teamId,
      serialNumber: content.serialNumber,
      description: content.description,
      organizationName: content.organizationName,
      logoText: content.logoText,
      backgroundColor: content.backgroundColor,
      foregroundColor: content.foregroundColor,
      labelColor: content.labelColor,
    },
  );
  const generic = new PassType('generic');
  generic.primaryFields.push(...content.primaryFields);
  generic.secondaryFields.push(...content.secondaryFields);
  generic.backFields.push(...content.backFields);
  pass.types.push(generic);
  pass.setBarcodes({ format: 'PKBarcodeFormatQR', message: content.barcodeMessage, messageEncoding: 'iso-8859-1', altText: content.barcodeAltText });
  // the library drops a barcode it finds invalid with a warning: a pass without its QR is no pass
  if (pass.props.barcodes?.[0]?.message !== content.barcodeMessage) throw new HttpError(500, 'The wallet pass could not be made');
  return pass.getAsBuffer();
}
