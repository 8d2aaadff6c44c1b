import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetKey } from '../../src/domain/uploads.ts';
import { crc32 } from '../../src/domain/zip-archive.ts';
import { signMediaToken, signZipToken } from '../../server/media/media-links.ts';
import { ZIP_MESSAGES } from '../../src/domain/media.ts';
import { startNginx } from '../support/nginx.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

const exec = promisify(execFile);
type Headers = { authorization: string };

/** Every entry of an archive as Python's zipfile reads it (every CRC checked), with its bytes' SHA-256. */
const READ_ZIP = `
import sys, zipfile, hashlib, json
with zipfile.ZipFile(sys.argv[1]) as z:
    print(json.dumps({i.filename: [hashlib.sha256(z.read(i)).hexdigest(), i.compress_type] for i in z.infolist()}))
`;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(DATABASES)('the raw zip streamed by the server on $name (issue 34)', ({ url }) => {
  let server: TestServer;
  let admin: Headers;
  let editor: Headers;
  let owner: Headers;
  let projectId: number;
  const files = {
    interview: { type: 'INTERVIEW_CLIP' as const, name: 'Interview Ünïcode 東京 1.mp4', bytes: randomBytes(3 * 1024 * 1024 + 17) },
    broll: { type: 'BROLL_CLIP' as const, name: 'drone.mov', bytes: randomBytes(700_001) },
    image: { type: 'ASSET' as const, name: 'logo.png', bytes: randomBytes(5_000) },
    // Issue 35: a clip from a dropped camera card, kept under its folder on the card.
    card: { type: 'INTERVIEW_CLIP' as const, name: 'C0001.MP4', folder: 'CARD/DCIM/100MSDCF', bytes: randomBytes(20_003) },
  };

  const call = (method: 'GET' | 'POST', path: string, headers: Partial<Headers> = {}, payload?: unknown) =>
    server.app.inject({ method, url: `/api/v1${path}`, payload: payload as object, headers });

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    editor = await signIn(server.app, 'editor@demo.cutdesk.test');
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    const project = await server.db.selectFrom('projects').select('id').where('deletedAt', 'is', null).orderBy('id').executeTakeFirstOrThrow();
    projectId = project.id;
    await server.db.deleteFrom('assets').where('projectId', '=', projectId).execute();
    for (const [key, file] of Object.entries(files)) {
      const path = assetKey(projectId, file.type, file.name);
      await server.app.ctx.storage.putObject(path, file.bytes);
      // The clips' CRC-32 as the media pipeline stores it; the image's not yet (computed while streaming).
      const known = key === 'image' ? null : crc32(file.bytes);
      await server.db
        .insertInto('assets')
        .values({
          projectId,
          name: file.name,
          size: file.bytes.length,
          type: file.type,
          path,
          previewPath: null,
          crc32: known,
          folder: 'folder' in file ? file.folder : null,
          // Issue 35: what the uploading device computed — the card's clip as stored, the interview
          // not (a stored copy that differs), the b-roll from before devices sent one, the image still being read back.
          sentCrc32: key === 'card' || key === 'image' ? crc32(file.bytes) : key === 'interview' ? crc32(file.bytes) ^ 1 : null,
        })
        .execute();
    }
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  async function link(headers: Headers): Promise<{ link: string; name: string; size: number; files: number }> {
    const response = await call('POST', `/projects/${projectId}/zip-links`, headers, { kind: 'raw' });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  it('streams every original byte for byte in its folder, with the length it announced, readable by zipfile and unzip -t', async () => {
    const answer = await link(admin);
    expect(answer).toMatchObject({ name: `project-${projectId}_raw_assets.zip`, files: 4 });
    const response = await fetch(`${server.baseUrl}${answer.link}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${answer.name}"`);
    expect(response.headers.get('cache-control')).toContain('no-store');
    expect(Number(response.headers.get('content-length'))).toBe(answer.size);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.length).toBe(answer.size);
    const file = join(server.dataDir, answer.name);
    await writeFile(file, bytes);
    const { stdout } = await exec('python3', ['-c', READ_ZIP, file]);
    expect(JSON.parse(stdout)).toEqual({
      'assets/': [sha(new Uint8Array()), 0],
      'interviews/': [sha(new Uint8Array()), 0],
      'b_roll/': [sha(new Uint8Array()), 0],
      [`interviews/${files.interview.name}`]: [sha(files.interview.bytes), 0],
      [`b_roll/${files.broll.name}`]: [sha(files.broll.bytes), 0],
      [`assets/${files.image.name}`]: [sha(files.image.bytes), 0],
      [`interviews/CARD/DCIM/100MSDCF/${files.card.name}`]: [sha(files.card.bytes), 0],
    });
    const tested = await exec('unzip', ['-t', file]).catch((error: { stdout: string }) => error);
    expect(tested.stdout).toContain('No errors detected');
    // Unzipped, the card's clip is in its folders (made by unzip: the archive lists only the three type folders).
    const unpacked = join(server.dataDir, 'unpacked');
    await exec('unzip', ['-q', file, '-d', unpacked]);
    expect(sha(await readFile(join(unpacked, 'interviews/CARD/DCIM/100MSDCF', files.card.name)))).toBe(sha(files.card.bytes));
  });

  it('gives staff the manifest beside the zip: each file under its path in the zip, its size, the CRC-32 unzip -v prints and whether it is verified (issue 35)', async () => {
    expect((await call('GET', `/projects/${projectId}/assets/manifest`, owner)).statusCode).toBe(403);
    const response = await call('GET', `/projects/${projectId}/assets/manifest`, editor);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="project-${projectId}_raw_assets_manifest.csv"`);
    const hex = (bytes: Uint8Array) => crc32(bytes).toString(16).padStart(8, '0');
    expect(response.body).toBe(
      '\uFEFFPath,Size,CRC-32,Status\r\n' +
        [
          [`interviews/${files.interview.name}`, files.interview.bytes.length, hex(files.interview.bytes), 'Checksum mismatch'],
          [`b_roll/${files.broll.name}`, files.broll.bytes.length, hex(files.broll.bytes), 'Not verified'],
          [`assets/${files.image.name}`, files.image.bytes.length, '', 'Checking'],
          [`interviews/CARD/DCIM/100MSDCF/${files.card.name}`, files.card.bytes.length, hex(files.card.bytes), 'Verified'],
        ]
          .map((row) => row.map((cell) => `"${cell}"`).join(','))
          .join('\r\n') +
        '\r\n',
    );
    // The CRC-32 of each file as unzip lists the zip staff download beside it.
    const answer = await link(admin);
    const file = join(server.dataDir, 'manifest-check.zip');
    await writeFile(file, new Uint8Array(await (await fetch(`${server.baseUrl}${answer.link}`)).arrayBuffer()));
    const { stdout } = await exec('unzip', ['-v', file]);
    expect(stdout).toContain(`${hex(files.card.bytes)}  interviews/CARD/DCIM/100MSDCF/${files.card.name}`);
  });

  it("reads the originals from the embedded store's files, not through a GET of its own at /s3", async () => {
    /** GETs the store answered so far, by the app's request counter. */
    const storeGets = async () => {
      const scrape = (await server.app.inject({ method: 'GET', url: '/metrics' })).body;
      return [...scrape.matchAll(/^cutdesk_http_requests_total\{method="GET",route="\/s3[^"]*",status_code="\d+"\} (\d+)$/gm)].reduce(
        (sum, [, n]) => sum + Number(n),
        0,
      );
    };
    const { link: good, size } = await link(admin);
    const before = await storeGets();
    expect((await (await fetch(`${server.baseUrl}${good}`)).arrayBuffer()).byteLength).toBe(size);
    expect(await storeGets()).toBe(before);
  });

  it('is for staff: a customer cannot ask for the link, nor use a link of theirs; an editor can', async () => {
    expect((await call('POST', `/projects/${projectId}/zip-links`, owner, { kind: 'raw' })).statusCode).toBe(403);
    expect((await link(editor)).files).toBe(4);
    const ownerRow = await server.db.selectFrom('users').selectAll().where('email', '=', 'owner@demo.cutdesk.test').executeTakeFirstOrThrow();
    const forged = signZipToken(server.config.jwtSecret, projectId, {
      userId: ownerRow.id,
      sessionVersion: ownerRow.sessionVersion,
      impersonatorId: null,
      impersonatorSessionVersion: null,
    });
    expect((await fetch(`${server.baseUrl}/api/v1/zips/${forged}/project-${projectId}_raw_assets.zip`)).status).toBe(404);
  });

  it('refuses a link that is not one (404), a media link (404), an expired one (410), another name (404) and another kind (400)', async () => {
    const { link: good } = await link(admin);
    const token = good.split('/')[4]!;
    const tampered = token.replace(/^\d+/, String(projectId + 1));
    expect((await fetch(`${server.baseUrl}/api/v1/zips/${tampered}/project-${projectId + 1}_raw_assets.zip`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/api/v1/zips/${token}/other.zip`)).status).toBe(404);
    const adminRow = await server.db.selectFrom('users').selectAll().where('email', '=', 'admin@demo.cutdesk.test').executeTakeFirstOrThrow();
    const session = { userId: adminRow.id, sessionVersion: adminRow.sessionVersion, impersonatorId: null, impersonatorSessionVersion: null };
    const expired = signZipToken(server.config.jwtSecret, projectId, session, Date.now() - (12 * 3600 + 60) * 1000);
    expect((await fetch(`${server.baseUrl}/api/v1/zips/${expired}/project-${projectId}_raw_assets.zip`)).status).toBe(410);
    const media = signMediaToken(server.config.jwtSecret, projectId, session);
    expect((await fetch(`${server.baseUrl}/api/v1/zips/${media}/project-${projectId}_raw_assets.zip`)).status).toBe(404);
    expect((await call('POST', `/projects/${projectId}/zip-links`, admin, { kind: 'proxy' })).statusCode).toBe(400);
  });

  it('ends with the session it was made for: after a password change the link answers 404', async () => {
    const { link: good } = await link(editor);
    await server.db
      .updateTable('users')
      .set({ sessionVersion: (eb) => eb('sessionVersion', '+', 1) })
      .where('email', '=', 'editor@demo.cutdesk.test')
      .execute();
    expect((await fetch(`${server.baseUrl}${good}`)).status).toBe(404);
  });

  it('resumes a download cut short: Range with If-Range gives the rest, byte for byte, while the archive is the same', async () => {
    const { link: good, size } = await link(admin);
    const first = await fetch(`${server.baseUrl}${good}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.headers.get('accept-ranges')).toBe('bytes');
    const whole = new Uint8Array(await first.arrayBuffer());
    // Cut inside the first clip, and inside the central directory at the end.
    for (const cut of [1_000_000, size - 40]) {
      const rest = await fetch(`${server.baseUrl}${good}`, { headers: { range: `bytes=${cut}-`, 'if-range': etag } });
      expect(rest.status).toBe(206);
      expect(rest.headers.get('content-range')).toBe(`bytes ${cut}-${size - 1}/${size}`);
      expect(Number(rest.headers.get('content-length'))).toBe(size - cut);
      expect(Buffer.from(await rest.arrayBuffer()).equals(Buffer.from(whole.subarray(cut)))).toBe(true);
    }
    const middle = await fetch(`${server.baseUrl}${good}`, { headers: { range: 'bytes=100-199' } });
    expect(middle.status).toBe(206);
    expect(Buffer.from(await middle.arrayBuffer()).equals(Buffer.from(whole.subarray(100, 200)))).toBe(true);
    // Another link of the same archive names the same bytes.
    expect((await fetch(`${server.baseUrl}${(await link(admin)).link}`, { method: 'HEAD' })).headers.get('etag')).toBe(etag);
    // Another archive (an asset added): If-Range no longer matches, so the whole archive comes.
    const path = assetKey(projectId, 'ASSET', 'added.png');
    await server.app.ctx.storage.putObject(path, randomBytes(10));
    const added = await server.db
      .insertInto('assets')
      .values({ projectId, name: 'added.png', size: 10, type: 'ASSET', path, previewPath: null, crc32: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const changed = await fetch(`${server.baseUrl}${good}`, { headers: { range: 'bytes=1000-', 'if-range': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(Number(changed.headers.get('content-length'))).toBeGreaterThan(size);
    await changed.arrayBuffer();
    await server.db.deleteFrom('assets').where('id', '=', added.id).execute();
    const past = await fetch(`${server.baseUrl}${good}`, { headers: { range: `bytes=${size}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
  });

  it("passes through deploy/nginx.conf (Debian's nginx) whole, and curl -C - finishes a cut download there byte for byte", async () => {
    const port = new URL(server.baseUrl!).port;
    const nginx = await startNginx(
      ['cutdesk', 'cutdesk_store', 'cutdesk_store_port'].map((name) => `  upstream ${name} { server 127.0.0.1:${port}; }`).join('\n'),
      [Number(port)],
    );
    try {
      const { link: good, size } = await link(admin);
      const whole = Buffer.from(await (await fetch(`${server.baseUrl}${good}`)).arrayBuffer());
      const proxied = await fetch(`${nginx.url}${good}`);
      expect(proxied.status).toBe(200);
      expect(Number(proxied.headers.get('content-length'))).toBe(size);
      expect(Buffer.from(await proxied.arrayBuffer()).equals(whole)).toBe(true);
      // A download cut after 1 MB, as curl left it; `-C -` asks for the rest.
      const file = join(server.dataDir, 'cut.zip');
      await writeFile(file, whole.subarray(0, 1_000_000));
      await exec('curl', ['-sS', '--fail', '-C', '-', '-o', file, `${nginx.url}${good}`]);
      expect((await readFile(file)).equals(whole)).toBe(true);
      // nginx's log keeps the link's token out, as the server's does.
      const logged = (await nginx.accessLog()).filter((line) => line.uri.startsWith('/api/v1/zips/'));
      expect(logged.map((line) => [line.uri, line.status])).toEqual([
        [`/api/v1/zips/[redacted]/project-${projectId}_raw_assets.zip`, 200],
        [`/api/v1/zips/[redacted]/project-${projectId}_raw_assets.zip`, 206],
      ]);
      expect(await readFile(join(nginx.dir, 'access.log'), 'utf8')).not.toContain(good.split('/')[4]!);
    } finally {
      await nginx.stop();
    }
  });

  it('answers HEAD with the headers and the length, and no body', async () => {
    const { link: good, size } = await link(admin);
    const response = await fetch(`${server.baseUrl}${good}`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(size);
    expect(response.headers.get('content-disposition')).toContain('_raw_assets.zip');
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('streams three zips at once per staff member: a fourth is refused with 429 until one ends', async () => {
    // A zip larger than what the sockets' buffers hold, so the three stay open while unread.
    const other = await server.db
      .selectFrom('projects')
      .select('id')
      .where('deletedAt', 'is', null)
      .where('id', '!=', projectId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const path = assetKey(other.id, 'BROLL_CLIP', 'long.mov');
    const size = 48 * 1024 * 1024;
    await server.app.ctx.storage.putObject(path, randomBytes(size));
    await server.db
      .insertInto('assets')
      .values({ projectId: other.id, name: 'long.mov', size, type: 'BROLL_CLIP', path, previewPath: null, crc32: null })
      .execute();
    const response = await call('POST', `/projects/${other.id}/zip-links`, admin, { kind: 'raw' });
    const { link: good } = response.json<{ link: string }>();
    const open = await Promise.all([1, 2, 3].map(() => fetch(`${server.baseUrl}${good}`)));
    expect(open.map((answer) => answer.status)).toEqual([200, 200, 200]);
    // The page asks with HEAD first (src/shared/media/zip-download.ts): the same answer, no body.
    expect((await fetch(`${server.baseUrl}${good}`, { method: 'HEAD' })).status).toBe(429);
    const fourth = await fetch(`${server.baseUrl}${good}`);
    expect(fourth.status).toBe(429);
    expect((await fourth.json()) as { message: string }).toEqual({ message: ZIP_MESSAGES.yoursBusy });
    // Another staff member still gets theirs.
    const { link: theirs } = await link(await signIn(server.app, 'superadmin@demo.cutdesk.test'));
    const another = await fetch(`${server.baseUrl}${theirs}`);
    expect(another.status).toBe(200);
    await another.arrayBuffer();
    // One ends: the next one is let through.
    expect((await open[0]!.arrayBuffer()).byteLength).toBeGreaterThan(size);
    await expect
      .poll(async () => {
        const again = await fetch(`${server.baseUrl}${good}`);
        await again.arrayBuffer().catch(() => undefined);
        return again.status;
      })
      .toBe(200);
    for (const answer of open.slice(1)) await answer.arrayBuffer();
  });

  it('a clip longer than its row is refused before a byte past its length goes out: the answer ends short, never a whole-looking archive', async () => {
    const { link: good, size } = await link(admin);
    await server.app.ctx.storage.putObject(assetKey(projectId, 'ASSET', files.image.name), randomBytes(files.image.bytes.length + 100_000));
    const response = await fetch(`${server.baseUrl}${good}`);
    expect(Number(response.headers.get('content-length'))).toBe(size);
    await expect(response.arrayBuffer()).rejects.toThrow();
    await server.app.ctx.storage.putObject(assetKey(projectId, 'ASSET', files.image.name), files.image.bytes);
  });

  it('a clip missing from the store cuts the answer short of its declared length, never a complete-looking archive', async () => {
    const { link: good, size } = await link(admin);
    await server.app.ctx.storage.deleteObject(assetKey(projectId, 'BROLL_CLIP', files.broll.name));
    const response = await fetch(`${server.baseUrl}${good}`);
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(size);
    await expect(response.arrayBuffer()).rejects.toThrow();
  });
});
