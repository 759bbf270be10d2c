import type { ApiErrorBody } from '../../shared/errors.js';
import { t } from '../i18n.js';

/** A failed API call, carrying the server's JSON error (with the offending field, when there is one). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
  }
  get field(): string | undefined {
    return this.body.field;
  }
}

function request<T>(method: string, url: string, body?: unknown): Promise<T> {
  if (body === undefined) return send<T>(method, url);
  return send<T>(method, url, { type: 'application/json', data: JSON.stringify(body) });
}

async function send<T>(method: string, url: string, body?: { type: string; data: BodyInit }): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: body
        ? { accept: 'application/json', 'content-type': body.type }
        : { accept: 'application/json' },
      body: body?.data,
    });
  } catch {
    throw new ApiError(0, {
      code: 'NETWORK',
      message: t('Could not reach the server. Check your connection and try again.'),
    });
  }
  const text = await response.text();
  const data: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const fallback = {
      code: 'HTTP_' + response.status,
      message: t('The server answered {status}', { status: String(response.status) }),
    };
    throw new ApiError(response.status, isErrorBody(data) ? data : fallback);
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ApiErrorBody).message === 'string';
}

export const api = {
  get: <T>(url: string) => request<T>('GET', url),
  post: <T>(url: string, body?: unknown) => request<T>('POST', url, body ?? {}),
  put: <T>(url: string, body: unknown) => request<T>('PUT', url, body),
  patch: <T>(url: string, body: unknown) => request<T>('PATCH', url, body),
  delete: <T>(url: string) => request<T>('DELETE', url),
  /** A file's bytes as the body, typed as the browser knows it (the server reads the type from the bytes). */
  upload: <T>(url: string, file: Blob) =>
    send<T>('POST', url, { type: file.type || 'application/octet-stream', data: file }),
};
