import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/api-error.ts';
import { queryClient, shouldRetry } from '../../src/lib/query.ts';

describe('the server-state layer', () => {
  afterEach(() => queryClient.clear());

  it('never retries an answer the server meant (4xx): the page shows it at once', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429]) expect(shouldRetry(0, new ApiError(status, 'no'))).toBe(false);
  });

  it('retries a network failure or a server error twice, then shows it', () => {
    for (const error of [new ApiError(0, 'offline'), new ApiError(500, 'boom'), new ApiError(503, 'busy'), new TypeError('fetch failed')]) {
      expect(shouldRetry(0, error)).toBe(true);
      expect(shouldRetry(1, error)).toBe(true);
      expect(shouldRetry(2, error)).toBe(false);
    }
  });

  it('asks the server once for a 404, however many pages want it', async () => {
    let calls = 0;
    const read = () =>
      queryClient.fetchQuery({
        queryKey: ['project', 404],
        queryFn: async () => {
          calls += 1;
          await new Promise((resolve) => setTimeout(resolve, 10));
          throw new ApiError(404, 'This project does not exist or was deleted.');
        },
      });
    const results = await Promise.allSettled([read(), read(), read()]);
    expect(results.every((r) => r.status === 'rejected' && (r.reason as ApiError).status === 404)).toBe(true);
    expect(calls).toBe(1);
  });

  it('keeps an answer for the pages that open within the stale time, and reads again once invalidated', async () => {
    let calls = 0;
    const read = () => queryClient.fetchQuery({ queryKey: ['organization', 7], queryFn: async () => ({ calls: ++calls }) });
    expect(await read()).toEqual({ calls: 1 });
    expect(await read()).toEqual({ calls: 1 });
    await queryClient.invalidateQueries({ queryKey: ['organization'] });
    expect(await read()).toEqual({ calls: 2 });
  });
});
