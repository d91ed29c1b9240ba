import type { ApiError } from '@flowbox/shared';
import { accessToken, clearTokens, refreshToken, saveTokens, setAccessToken } from './tokens.ts';
import { currentLanguage, i18n } from './i18n/index.ts';

const BASE = '/v1';

/** An API refusal in the one error shape of the API, its message already in the UI language. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ApiError['details'];

  constructor(status: number, body: ApiError) {
    super(body.message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = body.code;
    this.details = body.details;
  }
}

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Overrides the Bearer taken from the access_token cookie. */
  bearer?: string;
  /** Images are answered as bytes, not JSON. */
  responseType?: 'json' | 'blob';
  /** Told the share of the body sent so far (0 to 1): the request then goes through XMLHttpRequest. */
  onUploadProgress?: (sent: number) => void;
};

export type SessionEnd = 'logout' | 'expired';
let onSessionEnded: (reason: SessionEnd) => void = () => undefined;

/** The app decides what "logged out" means for the screen (reset the user, go to /login). */
export function setSessionEndedHandler(handler: (reason: SessionEnd) => void): void {
  onSessionEnded = handler;
}

function urlOf(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `${BASE}${path}${search ? `?${search}` : ''}`;
}

/**
 * fetch() cannot report how much of a body has left (upload streams are not in every browser): a
 * request that wants its upload progress goes through XMLHttpRequest, answered as a Response so
 * the rest of the client treats both alike.
 */
function sendWithProgress(
  url: string,
  init: { method: string; headers: Record<string, string>; body: XMLHttpRequestBodyInit | undefined },
  onUploadProgress: (sent: number) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(init.method, url);
    for (const [name, value] of Object.entries(init.headers)) request.setRequestHeader(name, value);
    request.responseType = 'blob';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onUploadProgress(event.loaded / event.total);
    };
    request.onload = () => {
      const noBody = request.status === 204 || request.status === 304;
      const contentType = request.getResponseHeader('Content-Type');
      resolve(
        new Response(noBody ? null : (request.response as Blob), {
          status: request.status,
          headers: contentType ? { 'Content-Type': contentType } : {},
        }),
      );
    };
    request.onerror = () => reject(new TypeError('network'));
    request.onabort = () => reject(new TypeError('aborted'));
    request.send(init.body ?? null);
  });
}

async function send(path: string, options: RequestOptions, bearer: string | undefined): Promise<Response> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': currentLanguage(),
  };
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  // A multipart body sets its own Content-Type, with the boundary.
  const { body } = options;
  if (body !== undefined && !(body instanceof FormData)) headers['Content-Type'] = 'application/json';
  const init = {
    method: options.method ?? 'GET',
    headers,
    body: body instanceof FormData || body === undefined ? body : JSON.stringify(body),
  };
  try {
    return options.onUploadProgress
      ? await sendWithProgress(urlOf(path, options.query), init, options.onUploadProgress)
      : await fetch(urlOf(path, options.query), init);
  } catch {
    throw new ApiRequestError(0, { code: 'errors.network', message: i18n.t('errors.network') });
  }
}

async function errorOf(response: Response): Promise<ApiRequestError> {
  const body = (await response.json().catch(() => null)) as Partial<ApiError> | null;
  if (body && typeof body.code === 'string' && typeof body.message === 'string') {
    return new ApiRequestError(response.status, body as ApiError);
  }
  return new ApiRequestError(response.status, {
    code: 'errors.api_error',
    message: i18n.t('errors.api_error'),
  });
}

async function parse<T>(
  response: Response,
  responseType: RequestOptions['responseType'] = 'json',
): Promise<T> {
  if (response.status === 204) return undefined as T;
  if (responseType === 'blob') return (await response.blob()) as T;
  return (await response.json()) as T;
}

let refreshing: Promise<void> | null = null;

/**
 * spec §4 token refresh: the access token cookie takes the refresh token's value, the refresh call
 * answers new tokens, which are saved. One refresh at a time: concurrent 401s share this promise.
 */
function refreshSession(): Promise<void> {
  refreshing ??= (async () => {
    const token = refreshToken();
    if (!token)
      throw new ApiRequestError(401, { code: 'errors.auth_expired', message: i18n.t('errors.auth_expired') });
    setAccessToken(token);
    const response = await send('/users/refresh', { method: 'POST' }, token);
    if (!response.ok) throw await errorOf(response);
    saveTokens(await parse<{ access_token: string; refresh_token: string }>(response));
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Clears the session on this browser; the screen is told through the session-ended handler. */
export function endSession(reason: SessionEnd): void {
  clearTokens();
  onSessionEnded(reason);
}

/** A refresh the server refused: the token is unknown, expired, reused or its session revoked. */
const endsSession = (error: ApiRequestError) => error.status === 401 || error.status === 403;

/**
 * Another tab of this browser is refreshing: the cookies are shared, and a refresh puts the refresh
 * token in the access token cookie until its answer comes (refreshSession). Retried with it, a call
 * would be refused and its screen would sign the user out: this tab refreshes too, with the same
 * refresh token, which the server's reuse grace answers (docs/decisions.md "Refresh token reuse").
 */
const anotherTabRefreshing = () => Boolean(accessToken()) && accessToken() === refreshToken();

function mayRefresh(): boolean {
  return Boolean(refreshToken()) && window.location.pathname !== '/login';
}

/** Calls the API with the Bearer and language headers, refreshing the session once on a 401. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const bearer = options.bearer ?? accessToken();
  const response = await send(path, options, bearer);
  if (response.ok) return parse<T>(response, options.responseType);
  if (response.status !== 401 || options.bearer !== undefined) throw await errorOf(response);

  const usedToken = bearer;
  if (refreshing) {
    await refreshing.catch(() => undefined);
  } else if (accessToken() === usedToken || !accessToken() || anotherTabRefreshing()) {
    if (!mayRefresh()) throw await errorOf(response);
    try {
      await refreshSession();
    } catch (error) {
      // Only the server's refusal ends the session. A network failure or a server error leaves the
      // tokens: the refresh may have reached the server, whose answer the next try gets within
      // its reuse grace (docs/decisions.md "Refresh token reuse").
      if (error instanceof ApiRequestError && !endsSession(error)) throw error;
      endSession('expired');
      throw error instanceof ApiRequestError ? error : await errorOf(response);
    }
  }
  // Another request may already have refreshed the session while this one was in flight.
  const retry = await send(path, options, accessToken());
  if (retry.ok) return parse<T>(retry, options.responseType);
  throw await errorOf(retry);
}

export const api = {
  get: <T>(path: string, query?: RequestOptions['query']) => apiRequest<T>(path, { query }),
  post: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'POST', body }),
  put: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PATCH', body }),
  delete: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'DELETE', body }),
  /** A multipart upload (one `file` part), e.g. an image. */
  upload: <T>(path: string, file: File) => {
    const body = new FormData();
    body.append('file', file);
    return apiRequest<T>(path, { method: 'PUT', body });
  },
  /**
   * A multipart form (fields, then files: a streaming server reads the fields first), `onProgress`
   * told the share sent so far, e.g. a firmware image.
   */
  postForm: <T>(path: string, body: FormData, onProgress: (sent: number) => void) =>
    apiRequest<T>(path, { method: 'POST', body, onUploadProgress: onProgress }),
  /** Bytes behind the token, e.g. an image shown through a blob: URL. */
  blob: (path: string) => apiRequest<Blob>(path, { responseType: 'blob' }),
};
