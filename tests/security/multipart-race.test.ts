import { randomBytes } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListPartsCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, startS3Target, type S3TestTarget } from '../storage/s3-harness.ts';

/**
 * Issue 9: concurrent CompleteMultipartUpload calls for one upload. Exactly one assembles the
 * object; the others get NoSuchUpload (404), never a 200 with an InternalError inside.
 */

const MiB = 1024 * 1024;
let target: S3TestTarget;
let client: S3Client;

beforeAll(async () => {
  target = await startS3Target();
  client = makeClient(target);
});

afterAll(async () => {
  client?.destroy();
  await target?.close();
});

async function uploadInTwoParts(key: string): Promise<{ uploadId: string; parts: Array<{ PartNumber: number; ETag: string }>; data: Buffer }> {
  const created = await client.send(new CreateMultipartUploadCommand({ Bucket: target.bucket, Key: key }));
  const uploadId = created.UploadId!;
  const first = randomBytes(5 * MiB);
  const second = randomBytes(MiB);
  const parts = [];
  for (const [index, body] of [first, second].entries()) {
    const { ETag } = await client.send(new UploadPartCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId, PartNumber: index + 1, Body: body }));
    parts.push({ PartNumber: index + 1, ETag: ETag! });
  }
  return { uploadId, parts, data: Buffer.concat([first, second]) };
}

type Outcome = { ok: true; etag: string } | { ok: false; code: string | undefined; status: number | undefined };

function settle(promise: Promise<{ ETag?: string | undefined }>): Promise<Outcome> {
  return promise.then(
    (done) => ({ ok: true as const, etag: done.ETag ?? '' }),
    (error: { name?: string; $metadata?: { httpStatusCode?: number } }) => ({ ok: false as const, code: error.name, status: error.$metadata?.httpStatusCode }),
  );
}

describe('CompleteMultipartUpload under concurrency', () => {
  it('eight simultaneous completions: one wins, seven answer NoSuchUpload 404', async () => {
    const key = `${target.runPrefix}race/complete.bin`;
    const { uploadId, parts, data } = await uploadInTwoParts(key);
    // One client per call, so the calls really travel on separate connections at once.
    const clients = Array.from({ length: 8 }, () => makeClient(target));
    try {
      const outcomes = await Promise.all(
        clients.map((each) =>
          settle(each.send(new CompleteMultipartUploadCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }))),
        ),
      );
      const won = outcomes.filter((outcome) => outcome.ok);
      const lost = outcomes.filter((outcome): outcome is Extract<Outcome, { ok: false }> => !outcome.ok);
      expect(won).toHaveLength(1);
      expect(lost.map((outcome) => [outcome.code, outcome.status])).toEqual(Array.from({ length: 7 }, () => ['NoSuchUpload', 404]));
    } finally {
      for (const each of clients) each.destroy();
    }
    const stored = await client.send(new GetObjectCommand({ Bucket: target.bucket, Key: key }));
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(data)).toBe(true);
    const parts404 = await settle(client.send(new ListPartsCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId })) as Promise<{ ETag?: string }>);
    expect(parts404).toMatchObject({ ok: false, code: 'NoSuchUpload', status: 404 });
  }, 60_000);

  it('an abort racing a completion never breaks it: the object is whole or the upload is gone', async () => {
    // Several rounds: which call goes first, and how far the other has got, differs each time
    // (one round in a full run once caught the completion assembling parts the abort was deleting).
    for (let round = 0; round < 6; round += 1) await raceAbortWithCompletion(`${target.runPrefix}race/abort-${round}.bin`);
  }, 120_000);

  async function raceAbortWithCompletion(key: string): Promise<void> {
    const { uploadId, parts, data } = await uploadInTwoParts(key);
    const other = makeClient(target);
    try {
      const [completed, aborted] = await Promise.all([
        settle(client.send(new CompleteMultipartUploadCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }))),
        settle(other.send(new AbortMultipartUploadCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId })) as Promise<{ ETag?: string }>),
      ]);
      if (completed.ok) {
        const stored = await client.send(new GetObjectCommand({ Bucket: target.bucket, Key: key }));
        expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(data)).toBe(true);
        if (!aborted.ok) expect(aborted).toMatchObject({ code: 'NoSuchUpload', status: 404 });
      } else {
        // The abort went first: the completion finds no upload (never an InternalError).
        expect(completed).toMatchObject({ code: 'NoSuchUpload', status: 404 });
        expect(aborted.ok).toBe(true);
      }
    } finally {
      other.destroy();
    }
  }
});
