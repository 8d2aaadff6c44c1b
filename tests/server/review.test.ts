import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment, CommentList, Version } from '../../src/domain/contract/review.ts';
import { COMMENTS_PER_VERSION_MAX, REVIEW_MESSAGES } from '../../src/domain/review-rules.ts';
import { timecodeToFrame, type FrameRate } from '../../src/domain/timecode.ts';
import { mediaTools } from '../../server/media/ffmpeg.ts';
import { mediaHandlers } from '../../server/media/pipeline.ts';
import { EDL_START_TIMECODE } from '../../server/review/export-markers.ts';
import { MP4_FTYP } from '../support/file-fixtures.ts';
import { hasFfmpeg } from '../support/media.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';
import { finalPreviewReady } from './final-preview.ts';

type Headers = { authorization?: string };
const exec = promisify(execFile);
const withFfmpeg = await hasFfmpeg();
/** The clip is 2 s at NTSC 29.97 (drop-frame timecode): 60 frames. */
const NTSC: FrameRate = { num: 30000, den: 1001 };
const FRAMES = 60;

async function ntscClip(): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'cutdesk-review-clip-'));
  const out = join(dir, 'clip.mp4');
  try {
    await exec('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x240:rate=30000/1001',
      '-frames:v',
      String(FRAMES),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      out,
    ]);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Parses the CSV the export writes (RFC 4180, quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe.each(DATABASES)('frame-accurate review on $name', ({ url }) => {
  let server: TestServer;
  const who: Record<'superadmin' | 'admin' | 'editor' | 'owner' | 'user' | 'outsider', Headers> = {
    superadmin: {},
    admin: {},
    editor: {},
    owner: {},
    user: {},
    outsider: {},
  };
  let projectId: number;
  let organizationId: number;
  const anonymous: Headers = {};

  const call = (method: string, path: string, headers: Headers, payload?: unknown) =>
    server.app.inject({
      method: method as 'GET',
      url: `/api/v1${path}`,
      headers: headers as Record<string, string>,
      ...(payload !== undefined && { payload: payload as object }),
    });
  const versions = async (headers: Headers) => {
    const response = await call('GET', `/projects/${projectId}/versions`, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ versions: Version[] }>().versions;
  };
  const comments = async (headers: Headers, version = 1) => {
    const response = await call('GET', `/projects/${projectId}/comments?version=${version}`, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<CommentList>();
  };
  const post = (headers: Headers, body: Record<string, unknown>) => call('POST', `/projects/${projectId}/comments`, headers, body);
  const deliver = async (name: string, bytes: Buffer) => {
    await server.app.ctx.storage.putObject(`projects/${projectId}/final/${name}`, bytes, 'video/mp4');
    const response = await call('POST', `/projects/${projectId}/deliverable`, who.admin, { path: `projects/${projectId}/final`, name });
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
    who.superadmin = await signIn(server.app, 'superadmin@demo.cutdesk.test');
    who.admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    who.editor = await signIn(server.app, 'editor@demo.cutdesk.test');
    who.owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    who.user = await signIn(server.app, 'user@demo.cutdesk.test');
    who.outsider = await signIn(server.app, 'nina@northwind.demo.cutdesk.test');
    const project = await server.db.selectFrom('projects').select(['id', 'organizationId']).where('name', '=', 'Product walkthrough').executeTakeFirstOrThrow();
    projectId = project.id;
    organizationId = project.organizationId;
  });
  afterAll(async () => server?.close());

  it('has no versions before a final video is delivered', async () => {
    expect(await versions(who.admin)).toEqual([]);
    expect((await call('GET', `/projects/${projectId}/comments?version=1`, who.admin)).statusCode).toBe(404);
  });

  it('records version 1 when staff deliver a final video; customers do not see it before review', async () => {
    await deliver('cut-v1.mp4', withFfmpeg ? await ntscClip() : Buffer.concat([MP4_FTYP, Buffer.from('not a video')]));
    const rows = await server.db.selectFrom('projectVersions').selectAll().where('projectId', '=', projectId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ number: 1, videoPath: `projects/${projectId}/final/cut-v1.mp4`, releasedAt: null, frameRateNum: null });
    const [v1] = await versions(who.admin);
    expect(v1).toMatchObject({ number: 1, current: true, frameRate: { num: 30, den: 1 }, frameRateKnown: false, durationFrames: null, releasedAt: null });
    expect(v1!.media!.preview).toMatch(new RegExp(`^/api/v1/media/${projectId}\\.[^/]+/preview\\.mp4$`));
    expect(await versions(who.editor)).toHaveLength(1);
    // Customers: the version under edit does not exist for them.
    expect(await versions(who.owner)).toEqual([]);
    expect(await versions(who.user)).toEqual([]);
    expect((await call('GET', `/projects/${projectId}/comments?version=1`, who.owner)).statusCode).toBe(404);
    expect((await post(who.owner, { version: 1, frame: 0, text: 'early' })).statusCode).toBe(404);
    // Delivering the same object again does not make another version.
    const again = await call('POST', `/projects/${projectId}/deliverable`, who.admin, { path: `projects/${projectId}/final`, name: 'cut-v1.mp4' });
    expect(again.statusCode).toBe(200);
    expect(await versions(who.admin)).toHaveLength(1);
  });

  it.runIf(withFfmpeg)('learns the real frame rate and length when the media job probes the video', async () => {
    const job = await server.db
      .selectFrom('mediaJobs')
      .selectAll()
      .where('projectId', '=', projectId)
      .where('kind', '=', 'final.thumbnail')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await mediaHandlers(server.app.ctx, mediaTools())['final.thumbnail']({ job, signal: new AbortController().signal });
    const [v1] = await versions(who.admin);
    expect(v1).toMatchObject({ frameRate: NTSC, frameRateKnown: true, durationFrames: FRAMES, width: 320, height: 240 });
  });

  it('answers 401 without a token and 404 to another organization on every route', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', `/projects/${projectId}/versions`],
      ['GET', `/projects/${projectId}/comments?version=1`],
      ['POST', `/projects/${projectId}/comments`, { version: 1, frame: 0, text: 'x' }],
      ['PATCH', `/projects/${projectId}/comments/1`, { text: 'x' }],
      ['DELETE', `/projects/${projectId}/comments/1`],
    ];
    for (const [method, path, body] of routes) {
      expect((await call(method, path, anonymous, body)).statusCode, `${method} ${path}`).toBe(401);
      expect((await call(method, path, who.outsider, body)).statusCode, `${method} ${path}`).toBe(404);
    }
    const exportPath = `/projects/${projectId}/comments/export?version=1&format=csv`;
    expect((await call('GET', exportPath, anonymous)).statusCode).toBe(401);
    expect((await call('GET', exportPath, who.outsider)).statusCode).toBe(403);
    expect((await call('GET', exportPath, who.owner)).statusCode).toBe(403);
    expect((await call('GET', exportPath, who.user)).statusCode).toBe(403);
  });

  it('lets staff comment on the version in editing', async () => {
    const response = await post(who.editor, { version: 1, frame: 10, text: 'Colour jumps here.' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<Comment>()).toMatchObject({
      frame: 10,
      author: { name: 'Eddie Cutter', role: 'EDITOR' },
      canEdit: true,
      canResolve: true,
      canDelete: true,
      resolved: false,
    });
  });

  it('releases the version to the customer when staff send it to review', async () => {
    await finalPreviewReady(server.db, projectId);
    expect((await call('POST', `/projects/${projectId}/submit`, who.admin)).statusCode).toBe(200);
    const [v1] = await versions(who.owner);
    expect(v1).toMatchObject({ number: 1, current: true });
    expect(v1!.releasedAt).not.toBeNull();
    expect(v1!.media).not.toBeNull();
    expect(await versions(who.user)).toHaveLength(1);
  });

  let ownerThread: Comment;
  it('takes comments from OWNER, USER and ADMIN with their timecode, and one level of replies', async () => {
    const owner = await post(who.owner, {
      version: 1,
      frame: 45,
      text: '  Logo <b>too</b> small  ',
      drawing: { shapes: [{ kind: 'arrow', color: 'red', from: { x: 0.1, y: 0.1 }, to: { x: 0.5, y: 0.5 } }] },
    });
    expect(owner.statusCode, owner.body).toBe(201);
    ownerThread = owner.json<Comment>();
    const rate = withFfmpeg ? NTSC : { num: 30, den: 1 };
    expect(ownerThread).toMatchObject({
      frame: 45,
      timecode: withFfmpeg ? '00:00:01;15' : '00:00:01:15',
      text: 'Logo <b>too</b> small',
      author: { name: 'Olivia Owner', role: 'OWNER' },
      parentId: null,
    });
    expect(timecodeToFrame(ownerThread.timecode, rate)).toBe(45);
    expect(ownerThread.drawing).toEqual({ shapes: [{ kind: 'arrow', color: 'red', from: { x: 0.1, y: 0.1 }, to: { x: 0.5, y: 0.5 } }] });

    const range = await post(who.user, { version: 1, frame: 20, endFrame: 30, text: 'Music too loud in this range.' });
    expect(range.statusCode, range.body).toBe(201);
    expect(range.json<Comment>()).toMatchObject({ endFrame: 30, author: { role: 'USER' } });
    const admin = await post(who.admin, { version: 1, frame: 0, text: 'Opening title will change.' });
    expect(admin.statusCode).toBe(201);

    const reply = await post(who.user, { version: 1, parentId: ownerThread.id, text: 'Agreed.' });
    expect(reply.statusCode, reply.body).toBe(201);
    const replyComment = reply.json<Comment>();
    expect(replyComment).toMatchObject({ parentId: ownerThread.id, frame: 45, canResolve: false });
    const deeper = await post(who.owner, { version: 1, parentId: replyComment.id, text: 'Reply to a reply' });
    expect(deeper.statusCode).toBe(400);
    expect(deeper.json()).toMatchObject({ message: REVIEW_MESSAGES.replyDepth, fields: { parentId: REVIEW_MESSAGES.replyDepth } });

    const list = await comments(who.owner);
    expect(list.comments.map((c) => c.frame)).toEqual([0, 10, 20, 45]);
    expect(list.comments[3]!.replies.map((r) => r.text)).toEqual(['Agreed.']);
    // The caller's permissions: the owner edits its own thread only, resolves it as author.
    const mine = list.comments[3]!;
    expect(mine).toMatchObject({ canEdit: true, canResolve: true, canDelete: true });
    expect(list.comments[2]).toMatchObject({ canEdit: false, canResolve: false, canDelete: false });
    const asAdmin = await comments(who.admin);
    expect(asAdmin.comments[3]).toMatchObject({ canEdit: false, canResolve: true, canDelete: true });
  });

  it('refuses bad input with 400 and a field message, never 500', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ version: 1, frame: 1, text: 'x'.repeat(2001) }, 'text'],
      [{ version: 1, frame: 1, text: '   ' }, 'text'],
      [{ version: 1, frame: 1, text: 42 }, 'text'],
      [{ version: 1, frame: -1, text: 'x' }, 'frame'],
      [{ version: 1, frame: 1.5, text: 'x' }, 'frame'],
      [{ version: 1, text: 'no frame' }, 'frame'],
      [{ version: 1, frame: 10, endFrame: 10, text: 'x' }, 'endFrame'],
      [{ version: 1, frame: 1, text: 'x', drawing: { shapes: [{ kind: 'circle', color: 'red' }] } }, 'drawing'],
      [{ version: 1, frame: 1, text: 'x', drawing: { shapes: [{ kind: 'arrow', color: 'red', from: { x: 2, y: 0 }, to: { x: 0, y: 0 } }] } }, 'drawing'],
      [{ version: 1, frame: 1, text: 'x', drawing: 'a picture' }, 'drawing'],
      [{ version: 0, frame: 1, text: 'x' }, 'version'],
      [{ version: 1, frame: 1, text: 'x', extra: true }, 'extra'],
      [{ version: 1, parentId: ownerThread.id, frame: 3, text: 'reply with a frame' }, 'frame'],
      ...(withFfmpeg
        ? ([
            [{ version: 1, frame: FRAMES + 1, text: 'past the end' }, 'frame'],
            [{ version: 1, frame: 1, endFrame: FRAMES + 1, text: 'range past the end' }, 'frame'],
          ] as [Record<string, unknown>, string][])
        : []),
    ];
    for (const [body, field] of cases) {
      const response = await post(who.owner, body);
      expect(response.statusCode, `${JSON.stringify(body).slice(0, 80)} → ${response.body}`).toBe(400);
      expect(Object.keys(response.json<{ fields: Record<string, string> }>().fields), response.body).toContain(field);
    }
    expect((await post(who.owner, { version: 1, frame: 1, text: 'x'.repeat(2000) })).statusCode).toBe(201);
    if (withFfmpeg) expect((await post(who.owner, { version: 1, frame: FRAMES, text: 'the very last picture' })).statusCode).toBe(201);
    expect((await post(who.owner, { version: 1, parentId: 2_000_000, text: 'to nobody' })).statusCode).toBe(404);
    expect((await post(who.owner, { version: 9, frame: 1, text: 'no such version' })).statusCode).toBe(404);
    expect((await call('GET', `/projects/${projectId}/comments?version=abc`, who.owner)).statusCode).toBe(400);
    expect((await call('GET', `/projects/${projectId}/comments`, who.owner)).statusCode).toBe(400);
    expect((await call('PATCH', `/projects/${projectId}/comments/${ownerThread.id}`, who.owner, {})).statusCode).toBe(400);
    expect((await call('PATCH', `/projects/${projectId}/comments/${ownerThread.id}`, who.owner, { text: 'y'.repeat(2001) })).statusCode).toBe(400);
    expect((await call('PATCH', `/projects/${projectId}/comments/abc`, who.owner, { text: 'y' })).statusCode).toBe(404);
  });

  it('resolves: the author and staff yes, another customer no (403), a reply never', async () => {
    const path = `/projects/${projectId}/comments/${ownerThread.id}`;
    const byUser = await call('PATCH', path, who.user, { resolved: true });
    expect(byUser.statusCode).toBe(403);
    expect(byUser.json()).toMatchObject({ message: REVIEW_MESSAGES.resolveForbidden });
    const byOwner = await call('PATCH', path, who.owner, { resolved: true });
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    expect(byOwner.json<Comment>()).toMatchObject({ resolved: true });
    const byEditor = await call('PATCH', path, who.editor, { resolved: false });
    expect(byEditor.statusCode).toBe(200);
    expect(byEditor.json<Comment>().resolved).toBe(false);
    expect((await call('PATCH', path, who.superadmin, { resolved: true })).statusCode).toBe(200);
    const reply = (await comments(who.owner)).comments.find((c) => c.id === ownerThread.id)!.replies[0]!;
    expect((await call('PATCH', `/projects/${projectId}/comments/${reply.id}`, who.user, { resolved: true })).statusCode).toBe(400);
  });

  it('edits: the author only', async () => {
    const path = `/projects/${projectId}/comments/${ownerThread.id}`;
    expect((await call('PATCH', path, who.user, { text: 'hijack' })).statusCode).toBe(403);
    expect((await call('PATCH', path, who.admin, { text: 'hijack' })).statusCode).toBe(403);
    const edited = await call('PATCH', path, who.owner, { text: 'Logo too small, make it 20% bigger.' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Comment>().text).toBe('Logo too small, make it 20% bigger.');
  });

  it('refuses writes through an impersonation token (words in the customer’s name), reads are fine', async () => {
    const login = await call('GET', `/organizations/${organizationId}/admin/login`, who.admin);
    expect(login.statusCode, login.body).toBe(200);
    const asOwner = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
    expect((await call('GET', `/projects/${projectId}/comments?version=1`, asOwner)).statusCode).toBe(200);
    expect((await post(asOwner, { version: 1, frame: 1, text: 'as the owner' })).statusCode).toBe(403);
    expect((await call('PATCH', `/projects/${projectId}/comments/${ownerThread.id}`, asOwner, { text: 'as the owner' })).statusCode).toBe(403);
  });

  it('exports markers whose timecodes name the comments’ frames (CSV, EDL, FCPXML)', async () => {
    const rate = withFfmpeg ? NTSC : { num: 30, den: 1 };
    const threads = (await comments(who.admin)).comments;
    const frames = threads.map((c) => c.frame).sort((a, b) => a - b);

    const csv = await call('GET', `/projects/${projectId}/comments/export?version=1&format=csv`, who.editor);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="Product_walkthrough_v01_comments.csv"');
    expect(csv.body.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(csv.body.slice(1));
    expect(rows[0]).toEqual(['Number', 'Reply to', 'Timecode', 'End', 'Author', 'Status', 'Comment']);
    const threadRows = rows.slice(1).filter((row) => row[0] !== '');
    expect(threadRows.map((row) => timecodeToFrame(row[2]!, rate))).toEqual(frames);
    expect(threadRows.find((row) => row[6]!.startsWith('Music'))![3]).toBe(threads.find((c) => c.endFrame === 30)!.endTimecode);
    // Each reply follows its thread, naming it.
    const expected = threads.flatMap((thread, i) => [[String(i + 1), '', thread.text], ...thread.replies.map((reply) => ['', String(i + 1), reply.text])]);
    expect(rows.slice(1).map((row) => [row[0], row[1], row[6]])).toEqual(expected);

    const edl = await call('GET', `/projects/${projectId}/comments/export?version=1&format=edl`, who.admin);
    expect(edl.statusCode).toBe(200);
    expect(edl.headers['content-disposition']).toMatch(/filename="Product_walkthrough_v01_comments\.edl"/);
    const start = timecodeToFrame(EDL_START_TIMECODE, rate)!;
    const events = edl.body
      .split('\r\n')
      .filter((line) => /^\d{3} /.test(line))
      .map((line) => line.trim().split(/\s+/)[4]!);
    expect(events.map((tc) => timecodeToFrame(tc, rate)! - start)).toEqual(frames);

    const xml = await call('GET', `/projects/${projectId}/comments/export?version=1&format=fcpxml`, who.superadmin);
    expect(xml.statusCode).toBe(200);
    expect(xml.headers['content-type']).toMatch(/^application\/xml/);
    const starts = [...xml.body.matchAll(/<marker start="([^"]+)"/g)].map((m) => {
      const [, num, den = '1'] = /^(\d+)(?:\/(\d+))?s$/.exec(m[1]!)!;
      return Math.round((Number(num) / Number(den)) * (rate.num / rate.den));
    });
    expect(starts).toEqual(frames);
    // The printable PDF is the fourth format (read back in tests/server/review-pdf.test.ts); others are refused.
    const pdf = await call('GET', `/projects/${projectId}/comments/export?version=1&format=pdf`, who.admin);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename="Product_walkthrough_v01_comments.pdf"');
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((await call('GET', `/projects/${projectId}/comments/export?version=1&format=xlsx`, who.admin)).statusCode).toBe(400);
  });

  it('deletes softly: a thread’s replies stay readable; others may not delete', async () => {
    const path = `/projects/${projectId}/comments/${ownerThread.id}`;
    expect((await call('DELETE', path, who.user)).statusCode).toBe(403);
    expect((await call('DELETE', path, who.editor)).statusCode).toBe(403);
    expect((await call('DELETE', path, who.owner)).statusCode).toBe(204);
    const placeholder = (await comments(who.user)).comments.find((c) => c.id === ownerThread.id)!;
    expect(placeholder).toMatchObject({ deleted: true, text: '', drawing: null, canEdit: false, canDelete: false });
    expect(placeholder.replies.map((r) => r.text)).toEqual(['Agreed.']);
    expect((await call('PATCH', path, who.owner, { text: 'back' })).statusCode).toBe(404);
    expect((await post(who.user, { version: 1, parentId: ownerThread.id, text: 'to a deleted thread' })).statusCode).toBe(404);
  });

  it('holds back a flood: 60 comment writes a minute per account (429), and at most COMMENTS_PER_VERSION_MAX per version (409)', async () => {
    let accepted = 0;
    let status = 201;
    while (status === 201 && accepted < 100) {
      status = (await post(who.superadmin, { version: 1, frame: 2, text: `Flood ${accepted}` })).statusCode;
      if (status === 201) accepted += 1;
    }
    expect(status).toBe(429);
    expect(accepted).toBe(60);
    // Another account is not held back by the first one's count.
    expect((await post(who.admin, { version: 1, frame: 2, text: 'Flood by another account' })).statusCode).toBe(201);

    const version = await server.db
      .selectFrom('projectVersions')
      .select('id')
      .where('projectId', '=', projectId)
      .where('number', '=', 1)
      .executeTakeFirstOrThrow();
    const live = await server.db
      .selectFrom('reviewComments')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('versionId', '=', version.id)
      .where('deletedAt', 'is', null)
      .executeTakeFirstOrThrow();
    const admin = await server.db.selectFrom('users').select(['id']).where('email', '=', 'admin@demo.cutdesk.test').executeTakeFirstOrThrow();
    const missing = COMMENTS_PER_VERSION_MAX - Number(live.n);
    await server.db
      .insertInto('reviewComments')
      .values(
        Array.from({ length: missing }, (_, i) => ({
          projectId,
          versionId: version.id,
          parentId: null,
          authorUserId: admin.id,
          authorName: 'Alex Admin',
          authorRole: 'ADMIN',
          frame: 3,
          endFrame: null,
          text: `Filler ${i}`,
          drawing: null,
        })),
      )
      .execute();
    const full = await post(who.admin, { version: 1, frame: 2, text: 'One too many' });
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe(REVIEW_MESSAGES.versionFull);
    await server.db
      .deleteFrom('reviewComments')
      .where('versionId', '=', version.id)
      .where((eb) => eb.or([eb('text', 'like', 'Flood%'), eb('text', 'like', 'Filler%')]))
      .execute();
  });

  it('closes comments once approved (409); managers may still delete', async () => {
    expect((await call('POST', `/projects/${projectId}/approve`, who.owner)).statusCode).toBe(200);
    const refused = await post(who.owner, { version: 1, frame: 2, text: 'one more thing' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: REVIEW_MESSAGES.closed });
    const thread = (await comments(who.owner)).comments.find((c) => c.author.role === 'USER')!;
    expect(thread).toMatchObject({ canEdit: false, canResolve: false, canDelete: false });
    expect((await call('PATCH', `/projects/${projectId}/comments/${thread.id}`, who.user, { text: 'edit' })).statusCode).toBe(409);
    expect((await call('DELETE', `/projects/${projectId}/comments/${thread.id}`, who.user)).statusCode).toBe(409);
    expect((await call('DELETE', `/projects/${projectId}/comments/${thread.id}`, who.admin)).statusCode).toBe(204);
    expect((await call('GET', `/projects/${projectId}/comments?version=1`, who.user)).statusCode).toBe(200);
  });

  it('a cut delivered after approval is version 2, hidden from customers until restored to review', async () => {
    await deliver('cut-v2.mp4', withFfmpeg ? await ntscClip() : Buffer.concat([MP4_FTYP, Buffer.from('still not a video')]));
    expect((await versions(who.admin)).map((v) => [v.number, v.current])).toEqual([
      [1, false],
      [2, true],
    ]);
    // Version 1 stays playable from its own files (its link names it).
    expect((await versions(who.admin))[0]!.media!.preview).toMatch(new RegExp(`^/api/v1/media/${projectId}v1\\.[^/]+/preview\\.mp4$`));
    expect((await versions(who.owner)).map((v) => v.number)).toEqual([1]);
    expect((await call('GET', `/projects/${projectId}/comments?version=2`, who.owner)).statusCode).toBe(404);
    expect((await call('GET', `/projects/${projectId}/comments?version=2`, who.editor)).statusCode).toBe(200);
    expect((await call('POST', `/projects/${projectId}/restore_to_review`, who.admin)).statusCode).toBe(200);
    expect((await versions(who.owner)).map((v) => v.number)).toEqual([1, 2]);
    expect((await post(who.user, { version: 2, frame: 3, text: 'Better!' })).statusCode).toBe(201);
    // Version 1's comments stay with version 1.
    expect((await comments(who.user, 2)).comments.map((c) => c.text)).toEqual(['Better!']);
  });
});
