import type { Problem } from '@portal/contract';
import { authorizationHeader, offlineError, refusal } from './api';

interface UploadOptions {
  method?: 'POST' | 'PUT';
  /** Share of the body sent so far, from 0 to 1. */
  onProgress?: (fraction: number) => void;
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Sends a multipart form (documents, files) with the session's token and reports the upload's progress, which
 * fetch cannot do; answers and refuses exactly like apiFetch (Problem JSON → ApiError, 401 → signed out).
 */
export function uploadWithProgress<T>(path: string, body: FormData, options: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(options.method ?? 'POST', path);
    const authorization = authorizationHeader();
    if (authorization) request.setRequestHeader('authorization', authorization);
    request.setRequestHeader('accept', 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    request.onload = () => {
      const answer = parseJson(request.responseText);
      if (request.status >= 200 && request.status < 300) {
        options.onProgress?.(1);
        resolve(answer as T);
      } else {
        reject(refusal(request.status, answer as Problem | null));
      }
    };
    request.onerror = () => reject(offlineError());
    request.send(body);
  });
}
