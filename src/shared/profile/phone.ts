import { phoneDigits } from './links';

/**
 * A phone number in E.164 (`+` and up to 15 digits) for machines that dial or import it (the vCard,
 * issue 37, decision 37-09): a number that names its country (`+44 20 ...`, `0044 20 ...`) keeps
 * it; a ten-digit North American number (the shop is in New York: area code and exchange start
 * with 2-9), with or without the leading 1, becomes `+1...`. Any other national number has no
 * country we could know: it is answered as its digits, never guessed. Null when it is not a number.
 */
export function phoneE164(input: string): string | null {
  const n = phoneDigits(input);
  if (!n || n.startsWith('+')) return n;
  const nanp = /^1?([2-9]\d{2}[2-9]\d{6})$/.exec(n);
  return nanp ? `+1${nanp[1]}` : n;
}
