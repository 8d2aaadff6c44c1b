/**
 * How the upload engine sends HTTP requests. The browser worker uses XMLHttpRequest (the one
 * API with upload progress); Node (tests, bench) uses fetch. Both answer the same shape and
 * throw `TransportError` for network failures and aborts.
 */

export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Blob | string;
  signal?: AbortSignal;
  /** Bytes of the body sent so far (may be called many times). */
  onUploadProgress?: (loaded: number) => void;
}

export interface TransportResponse {
  status: number;
  header(name: string): string | null;
  text: string;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** A request that got no HTTP answer: the network failed, or it was aborted. */
export class TransportError extends Error {
  readonly aborted: boolean;
  constructor(message: string, aborted: boolean) {
    super(message);
    this.name = 'TransportError';
    this.aborted = aborted;
  }
}

/** fetch-based transport (no progress events: the body counts as sent when the answer arrives). */
export function fetchTransport(fetchImpl: typeof fetch = fetch): Transport {
  return async ({ method, url, headers, body, signal, onUploadProgress }) => {
    let response: Response;
    try {
      response = await fetchImpl(url, { method, headers, ...(body !== undefined && { body }), ...(signal && { signal }) });
    } catch (error) {
      throw new TransportError(error instanceof Error ? error.message : String(error), signal?.aborted ?? false);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new TransportError(error instanceof Error ? error.message : String(error), signal?.aborted ?? false);
    }
    if (response.ok && body !== undefined && onUploadProgress) onUploadProgress(typeof body === 'string' ? body.length : body.size);
    return { status: response.status, header: (name) => response.headers.get(name), text };
  };
}

/** XMLHttpRequest transport with upload progress (browsers, workers included). */
export function xhrTransport(): Transport {
  return ({ method, url, headers, body, signal, onUploadProgress }) =>
    new Promise<TransportResponse>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new TransportError('aborted', true));
        return;
      }
      const xhr = new XMLHttpRequest();
      xhr.open(method, url);
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      if (onUploadProgress) xhr.upload.onprogress = (event) => onUploadProgress(event.loaded);
      const onAbort = () => xhr.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      xhr.onload = () => {
        done();
        resolve({ status: xhr.status, header: (name) => xhr.getResponseHeader(name), text: xhr.responseText });
      };
      xhr.onerror = () => {
        done();
        reject(new TransportError('network error', false));
      };
      xhr.ontimeout = xhr.onerror;
      xhr.onabort = () => {
        done();
        reject(new TransportError('aborted', true));
      };
      xhr.send(body ?? null);
    });
}
