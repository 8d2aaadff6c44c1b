import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { TestServer } from '../server/harness.ts';

export type Headers = { authorization: string };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const BRIEF = { name: 'Security test', audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'A short film.' };

/** API calls of a listening test server, with the Host the browser would send (presigned URLs are signed for it). */
export function apiOf(server: TestServer) {
  const host = new URL(server.baseUrl!).host;
  const call = (method: Method, path: string, headers: Partial<Headers> = {}, payload?: unknown) =>
    server.app.inject({ method, url: `/api/v1${path}`, payload: payload as object, headers: { ...headers, host } });
  const clients: S3Client[] = [];

  /** A new OPENED project of Demo Studio (the owner's organization). */
  async function createProject(headers: Headers): Promise<number> {
    const organizationId = (await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
    const created = await call('POST', `/organizations/${organizationId}/projects`, headers, BRIEF);
    if (created.statusCode !== 200 && created.statusCode !== 201) throw new Error(`project not created: ${created.body}`);
    return created.json<{ id: number }>().id;
  }

  /**
   * What a customer's browser does: temporary credentials, a name from check-name, a PUT with
   * the Content-Type it chooses. Answers the stored key and the registration's answer.
   */
  async function uploadAndRegister(
    headers: Headers,
    projectId: number,
    type: 'InterviewClip' | 'BRollClip' | 'Asset',
    name: string,
    bytes: Buffer,
    contentType: string,
  ) {
    const credentials = (await call('POST', '/uploads/credentials', headers, { projectId })).json<{
      accessKeyId: string;
      secretAccessKey: string;
      sessionToken: string;
      bucket: string;
      region: string;
    }>();
    const checked = (await call('GET', `/projects/${projectId}/assets/check-name?type=${type}&name=${encodeURIComponent(name)}`, headers)).json<{
      name: string;
      location: string;
    }>();
    const s3 = new S3Client({
      endpoint: `${server.baseUrl}/s3`,
      region: credentials.region,
      forcePathStyle: true,
      credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey, sessionToken: credentials.sessionToken },
      maxAttempts: 1,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    clients.push(s3);
    await s3.send(new PutObjectCommand({ Bucket: credentials.bucket, Key: checked.location, Body: bytes, ContentType: contentType }));
    const registered = await call('POST', `/projects/${projectId}/assets`, headers, { name: checked.name, path: checked.location, type, size: bytes.length });
    return { key: checked.location, registered };
  }

  return { call, createProject, uploadAndRegister, close: () => clients.forEach((client) => client.destroy()) };
}

/** The organization's used space, in bytes. */
export async function usedSpaceOf(server: TestServer, organizationName = 'Demo Studio'): Promise<number> {
  return (await server.db.selectFrom('organizations').select('usedSpace').where('name', '=', organizationName).executeTakeFirstOrThrow()).usedSpace;
}
