/**
 * Saves a Blob as a file under `fileName` (a click on a temporary `<a download>`). The object URL
 * is released a little later, once the browser has taken the download.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Saves a fetched file under the name the server gave it (`Content-Disposition: attachment;
 * filename="..."`), or `fallbackName`; answers the name. Staff downloads that the recent-auth
 * check guards are fetched this way rather than linked, so `apiRequest` can open "Confirm it is
 * you" and send them again (decision 39-05).
 */
export async function saveResponse(res: Response, fallbackName: string): Promise<string> {
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  saveBlob(await res.blob(), name);
  return name;
}
