import type { ErrorResponse } from '#shared/schemas/common';

/**
 * The one way the client talks to the server: sends credentials, sets a JSON content type only when
 * there is a body, and turns a non-2xx answer into an ApiError whose message is
 * "STATUS: body text" (or the status text when the body is empty), as the spec says.
 */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
  }
  /** the parsed JSON body, when it was JSON */
  get body(): Partial<ErrorResponse> | null {
    try {
      return JSON.parse(this.bodyText);
    } catch {
      return null;
    }
  }
}

export async function throwIfNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = (await res.text().catch(() => '')) || '';
    throw new ApiError(res.status, text, res.statusText);
  }
}

/**
 * "Confirm it is you" (issue 39, decision 39-05): a sensitive staff action answered 403
 * `recent_auth_required` asks the page's confirm dialog (registered by `setRecentAuthConfirm`),
 * and is sent once more when the person confirmed. Without a dialog the 403 stays an error.
 */
const RECENT_AUTH_CODE = 'recent_auth_required';
let confirmRecentAuth: (() => Promise<boolean>) | null = null;

/** Registers the dialog that confirms the session; answers the function that removes it again. */
export function setRecentAuthConfirm(confirm: () => Promise<boolean>): () => void {
  confirmRecentAuth = confirm;
  return () => {
    if (confirmRecentAuth === confirm) confirmRecentAuth = null;
  };
}

/** True when the error is the refusal the confirm dialog can lift. */
function isRecentAuthRequired(status: number, bodyText: string): boolean {
  if (status !== 403 || !bodyText.includes(RECENT_AUTH_CODE)) return false;
  try {
    return (JSON.parse(bodyText) as { code?: string }).code === RECENT_AUTH_CODE;
  } catch {
    return false;
  }
}

/** Asks the confirm dialog, when one is there and the refusal is the recent-auth one. */
async function confirmedAfter(status: number, bodyText: string): Promise<boolean> {
  return !!confirmRecentAuth && isRecentAuthRequired(status, bodyText) && (await confirmRecentAuth());
}

export async function apiRequest(method: string, url: string, body?: unknown, headers: Record<string, string> = {}, retried = false): Promise<Response> {
  const res = await fetch(url, {
    method,
    credentials: 'include',
    headers: body !== undefined ? { 'Content-Type': 'application/json', ...headers } : headers,
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  if (res.status === 403 && !retried && confirmRecentAuth) {
    const text = (await res.text().catch(() => '')) || '';
    if (await confirmedAfter(res.status, text)) return apiRequest(method, url, body, headers, true);
    throw new ApiError(res.status, text, res.statusText);
  }
  await throwIfNotOk(res);
  return res;
}

/** The server's own message for a toast (falls back to `fallback`). */
export function errorMessage(err: unknown, fallback = 'Please try again.'): string {
  if (err instanceof ApiError) return err.body?.message || fallback;
  if (err instanceof Error && err.message && !/^Failed to fetch|NetworkError|Load failed/i.test(err.message)) return err.message;
  return fallback;
}

/** The server's field errors, e.g. { email: 'Please enter a valid email address' }. */
export function fieldErrors(err: unknown): Record<string, string> {
  return err instanceof ApiError ? (err.body?.errors ?? {}) : {};
}

/**
 * Multipart upload with progress (fetch has no upload progress). Resolves with the parsed JSON;
 * rejects with an ApiError like the other calls.
 */
export function uploadFile<T = { url: string }>(
  url: string,
  field: string,
  file: Blob,
  opts: { onProgress?: (fraction: number) => void; extra?: Record<string, string>; fileName?: string } = {},
): Promise<T> {
  return uploadOnce<T>(url, field, file, opts).catch(async (err: unknown) => {
    if (err instanceof ApiError && (await confirmedAfter(err.status, err.bodyText))) return uploadOnce<T>(url, field, file, opts);
    throw err;
  });
}

function uploadOnce<T>(url: string, field: string, file: Blob, opts: { onProgress?: (fraction: number) => void; extra?: Record<string, string>; fileName?: string }): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText));
        } catch {
          resolve(null as T);
        }
      } else reject(new ApiError(xhr.status, xhr.responseText, xhr.statusText));
    };
    xhr.onerror = () => reject(new Error('Network error'));
    const fd = new FormData();
    for (const [k, v] of Object.entries(opts.extra ?? {})) fd.append(k, v);
    fd.append(field, file, opts.fileName ?? (file instanceof File ? file.name : 'upload'));
    xhr.send(fd);
  });
}
