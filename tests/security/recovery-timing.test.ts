import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../support/outbox.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';

/**
 * Issue 9: PUT password-recover answers the same, in the same time, for an account and for an
 * unknown e-mail. The lookup and the mail happen after the answer (server/background.ts).
 */
describe('password recovery timing', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(null);
  });
  afterAll(async () => server?.close());

  const recover = async (email: string) => {
    const started = process.hrtime.bigint();
    const response = await server.app.inject({ method: 'PUT', url: '/api/v1/password-recover', payload: { email } });
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    expect(response.statusCode).toBe(204);
    // The mail of one request must not run during the next one's measurement.
    await server.app.background.drain();
    return elapsed;
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

  it('takes as long for an existing account as for an unknown e-mail', async () => {
    await recover('owner@demo.cutdesk.test');
    await recover('ghost@example.com');
    const known: number[] = [];
    const unknown: number[] = [];
    // Alternating, so whatever else the machine does weighs on both alike.
    for (let i = 0; i < 15; i++) {
      known.push(await recover('owner@demo.cutdesk.test'));
      unknown.push(await recover('ghost@example.com'));
    }
    const difference = Math.abs(median(known) - median(unknown));
    expect(difference, `known ${median(known).toFixed(2)} ms, unknown ${median(unknown).toFixed(2)} ms`).toBeLessThan(Math.max(3, median(unknown) * 0.5));
    // The mails were still sent, after the answers.
    expect((await readOutbox(server.dataDir)).filter((mail) => mail.to.includes('owner@demo.cutdesk.test'))).toHaveLength(16);;
  });
});
