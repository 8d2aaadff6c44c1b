/**
 * A JSON call to the API at `base` (`http://host:port`), as a script or a spec outside the app
 * makes one: the bearer token when given, the body as JSON, the answer parsed; a non-2xx answer
 * throws with its status and text.
 */
export function apiCaller(base: string) {
  return async function call<T>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}
