/**
 * Copying text to the clipboard. The async clipboard needs a secure origin and a recent browser;
 * elsewhere a hidden text area and the copy command do the job.
 */

/** Copies with a temporary hidden text area and the copy command; true when the browser copied. */
export function copyWithTextArea(text: string): boolean {
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.appendChild(ta);
  ta.select();
  const ok = document.execCommand('copy');
  ta.remove();
  return ok;
}

/** Copies text, with the text area only where the async clipboard is unavailable; rejects when the copy fails. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  if (!copyWithTextArea(text)) throw new Error('copy failed');
}

/** Copies text, trying the text area also when the async clipboard refuses; never rejects, answers whether it copied. */
export async function tryCopyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {}
  try {
    return copyWithTextArea(text);
  } catch {
    return false;
  }
}
