import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment, CommentList, Thread } from '../../src/domain/contract/review.ts';
import type { FrameRate } from '../../src/domain/timecode.ts';
import { mediaTools } from '../../server/media/ffmpeg.ts';
import { mediaHandlers } from '../../server/media/pipeline.ts';
import { frameHeaderFirst } from '../../server/review/comments-pdf.ts';
import { FRAME_THUMBNAIL_LIMITS, frameStartSeconds } from '../../server/review/frame-thumbnails.ts';
import { MP4_FTYP } from '../support/file-fixtures.ts';
import { hasFfmpeg } from '../support/media.ts';
import { EVERY_SCRIPT, missingScripts } from '../support/pdf-scripts.ts';
import { DATABASES, startTestServer, type TestServer } from './harness.ts';
import { reviewCast } from './review-fixture.ts';
import { finalPreviewReady } from './final-preview.ts';

/**
 * Issue 13, the editors' export as a PDF: GET projects/{id}/comments/export?format=pdf. Read back
 * with poppler (pdftotext, pdfimages, pdfinfo), as a person or a printer would read it: the
 * words on the pages, one picture per thread, and each picture the commented frame itself.
 */
type Headers = { authorization?: string };
const exec = promisify(execFile);
const withFfmpeg = await hasFfmpeg();
const NTSC: FrameRate = { num: 30000, den: 1001 };
const FRAMES = 60;

/**
 * 2 s at 29.97 (drop-frame timecode) whose every frame is one flat grey, a step brighter than the
 * one before: the brightness of a picture names the frame it was cut from.
 */
async function rampClip(dir: string): Promise<Buffer> {
  const out = join(dir, 'ramp.mp4');
  await exec('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    "nullsrc=size=480x270:rate=30000/1001,geq=lum='40+N*3':cb=128:cr=128",
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
  return readFile(out);
}

/** Mean grey of each picture in `input` (a video: one value per frame; an image: one value), by ffmpeg. */
async function brightness(input: string): Promise<number[]> {
  const { stdout } = await exec('ffmpeg', ['-v', 'error', '-i', input, '-vf', 'scale=1:1:flags=area,format=gray', '-f', 'rawvideo', '-'], {
    encoding: 'buffer',
  });
  return [...stdout];
}

/** pdftotext's words on one line each way: runs of white space (line and page breaks too) as one space, bidi marks gone. */
const flat = (text: string) => text.replace(/[\u200e\u200f\u202a-\u202e]/g, '').replace(/\s+/g, ' ');

describe('frame times', () => {
  it('start each frame at frame × den / num, rounded down to the microsecond (never into the next frame)', () => {
    expect(frameStartSeconds(0, NTSC)).toBe('0.000000');
    expect(frameStartSeconds(45, NTSC)).toBe('1.501500');
    expect(frameStartSeconds(1, { num: 24000, den: 1001 })).toBe('0.041708');
    expect(frameStartSeconds(107892, NTSC)).toBe('3599.996400');
    expect(frameStartSeconds(50, { num: 25, den: 1 })).toBe('2.000000');
  });

  it('moves a JPEG’s frame header before its tables, bytes otherwise kept', () => {
    const segment = (marker: number, body: number[]) => [0xff, marker, 0, body.length + 2, ...body];
    const jpeg = Uint8Array.from([
      0xff,
      0xd8,
      ...segment(0xe0, [1, 2]),
      ...segment(0xdb, [3]),
      ...segment(0xc4, [4, 5]),
      ...segment(0xc0, [0, 0, 9, 1, 64, 3]),
      ...segment(0xda, [7]),
      0x11,
      0x22,
      0xff,
      0xd9,
    ]);
    const moved = frameHeaderFirst(jpeg);
    expect([...moved]).toEqual([
      0xff,
      0xd8,
      ...segment(0xe0, [1, 2]),
      ...segment(0xc0, [0, 0, 9, 1, 64, 3]),
      ...segment(0xdb, [3]),
      ...segment(0xc4, [4, 5]),
      ...segment(0xda, [7]),
      0x11,
      0x22,
      0xff,
      0xd9,
    ]);
    expect(frameHeaderFirst(Uint8Array.from([1, 2, 3]))).toEqual(Uint8Array.from([1, 2, 3]));
  });
});

describe.each(DATABASES)('the comments PDF on $name', ({ name, url }) => {
  let server: TestServer;
  let work: string;
  const who: Record<'admin' | 'editor' | 'owner' | 'user' | 'outsider', Headers> = { admin: {}, editor: {}, owner: {}, user: {}, outsider: {} };
  let projectId: number;
  let threads: Thread[];

  const call = (method: string, path: string, headers: Headers, payload?: unknown) =>
    server.app.inject({
      method: method as 'GET',
      url: `/api/v1${path}`,
      headers: headers as Record<string, string>,
      ...(payload !== undefined && { payload: payload as object }),
    });
  const post = async (headers: Headers, body: Record<string, unknown>) => {
    const response = await call('POST', `/projects/${projectId}/comments`, headers, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Comment>();
  };
  const pdfPath = `/comments/export?version=1&format=pdf`;
  /** The PDF as staff download it, saved to a file for poppler. */
  const download = async (name: string) => {
    const response = await call('GET', `/projects/${projectId}${pdfPath}`, who.editor);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const file = join(work, name);
    await writeFile(file, response.rawPayload);
    return { response, file };
  };
  const text = async (file: string) => (await exec('pdftotext', ['-enc', 'UTF-8', file, '-'])).stdout;
  const imageCount = async (file: string) => (await exec('pdfimages', ['-list', file])).stdout.trim().split('\n').slice(2).length;

  const LONG = Array.from({ length: 260 }, (_, i) => `note${i}`).join(' ');
  const HOSTILE = '<script>alert("x")</script> Logo שלום עולם 🎬 done';

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'cutdesk-review-pdf-'));
    server = await startTestServer(url, { storage: true });
    const cast = await reviewCast(server);
    Object.assign(who, { admin: cast.admin, editor: cast.editor, owner: cast.owner, user: cast.user, outsider: cast.otherOwner });
    projectId = (await server.db.selectFrom('projects').select('id').where('name', '=', 'Product walkthrough').executeTakeFirstOrThrow()).id;

    // Staff deliver the cut; the media job probes it (the real rate: 29.97, drop-frame).
    const bytes = withFfmpeg ? await rampClip(work) : Buffer.concat([MP4_FTYP, Buffer.from('not a video')]);
    await server.app.ctx.storage.putObject(`projects/${projectId}/final/cut-v1.mp4`, bytes, 'video/mp4');
    const delivered = await call('POST', `/projects/${projectId}/deliverable`, who.admin, { path: `projects/${projectId}/final`, name: 'cut-v1.mp4' });
    expect(delivered.statusCode, delivered.body).toBe(200);
    if (withFfmpeg) {
      const job = await server.db
        .selectFrom('mediaJobs')
        .selectAll()
        .where('projectId', '=', projectId)
        .where('kind', '=', 'final.thumbnail')
        .executeTakeFirstOrThrow();
      await mediaHandlers(server.app.ctx, mediaTools())['final.thumbnail']({ job, signal: new AbortController().signal });
    }
    await finalPreviewReady(server.db, projectId);
    expect((await call('POST', `/projects/${projectId}/submit`, who.admin)).statusCode).toBe(200);

    const logo = await post(who.owner, {
      version: 1,
      frame: 45,
      text: HOSTILE,
      drawing: {
        shapes: [
          { kind: 'arrow', color: 'red', from: { x: 0.1, y: 0.1 }, to: { x: 0.5, y: 0.5 } },
          { kind: 'rectangle', color: 'yellow', x: 0.6, y: 0.2, width: 0.3, height: 0.5 },
          { kind: 'text', color: 'white', at: { x: 0.6, y: 0.9 }, text: 'here' },
        ],
      },
    });
    await post(who.user, { version: 1, frame: 20, endFrame: 30, text: 'Music too loud in this range.' });
    await post(who.admin, { version: 1, frame: 0, text: `Opening title will change.\n${LONG}` });
    const colour = await post(who.editor, { version: 1, frame: 10, text: 'Colour jumps here.' });
    expect((await call('PATCH', `/projects/${projectId}/comments/${colour.id}`, who.admin, { resolved: true })).statusCode).toBe(200);
    await post(who.user, { version: 1, parentId: logo.id, text: 'Agreed, make it bigger.' });
    await post(who.admin, { version: 1, parentId: logo.id, text: 'Done in the next cut.' });
    const list = await call('GET', `/projects/${projectId}/comments?version=1`, who.admin);
    threads = list.json<CommentList>().comments;
    expect(threads.map((thread) => thread.frame)).toEqual([0, 10, 20, 45]);
  });
  afterAll(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('is an A4 PDF attachment with the title, the rate, and every thread’s timecode, author, state, text and replies in frame order', async () => {
    const { response, file } = await download('comments.pdf');
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('attachment; filename="Product_walkthrough_v01_comments.pdf"');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const info = (await exec('pdfinfo', [file])).stdout;
    expect(info).toMatch(/Page size:\s+595\.2\d? x 841\.8\d? pts \(A4\)/);
    // The long comment runs onto a second page.
    expect(Number(/Pages:\s+(\d+)/.exec(info)![1])).toBeGreaterThanOrEqual(2);
    expect(info).toContain('Product walkthrough — v01 — review comments');

    const words = flat(await text(file));
    expect(words).toContain('Product walkthrough — v01 — review comments');
    expect(words).toMatch(/Generated \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    if (withFfmpeg) expect(words).toContain('29.97 fps, drop-frame timecode');
    let last = -1;
    for (const thread of threads) {
      const heading = thread.endTimecode ? `${thread.timecode} – ${thread.endTimecode}` : thread.timecode;
      const at = words.indexOf(heading);
      expect(at, heading).toBeGreaterThan(last);
      last = at;
      const role = ({ ADMIN: 'Admin', EDITOR: 'Editor', OWNER: 'Owner', USER: 'User' } as Record<string, string>)[thread.author.role];
      expect(words).toContain(`${thread.author.name} · ${role}`);
      // The right-to-left comment is read back in the next test (pdftotext reorders it its own way).
      if (thread.text !== HOSTILE) expect(words).toContain(flat(thread.text));
      expect(words.slice(at, at + 60)).toContain(thread.resolved ? 'Resolved' : 'Open');
      for (const reply of thread.replies) expect(words).toContain(`↳ ${reply.author.name} · ${reply.author.role === 'ADMIN' ? 'Admin' : 'User'} ${reply.text}`);
    }
    if (withFfmpeg) expect(threads.find((t) => t.frame === 20)!.endTimecode).toBe('00:00:01;00');
  });

  it('writes the customers’ words as text: markup, right-to-left script and emoji are not interpreted', async () => {
    const { file } = await download('hostile.pdf');
    const words = flat(await text(file));
    expect(words).toContain('<script>alert("x")</script> Logo');
    expect(words).toContain('שלום עולם');
    // The emoji is drawn with the chain's emoji font (issue 36), not replaced by its code point.
    // (pdftotext reads the emoji and the space after the Hebrew into its right-to-left run; on the page they are in place.)
    expect(words).toContain('🎬');
    expect(words).toMatch(/עולם ?done/);
    expect(words).not.toContain('[U+');
    // Nothing in the file runs: no JavaScript, no actions (jsPDF's /OpenAction is only the page to open at), no forms.
    const raw = (await readFile(file)).toString('latin1');
    expect(raw).not.toMatch(/\/JavaScript|\/JS\b|\/OpenAction\s*<<|\/AA\b|\/AcroForm|\/Launch|\/URI\b/);
  });

  it.runIf(withFfmpeg)('shows one picture per thread, 320 px wide, each the commented frame itself', async () => {
    const { file } = await download('pictures.pdf');
    const list = (await exec('pdfimages', ['-list', file])).stdout.trim().split('\n').slice(2);
    expect(list).toHaveLength(threads.length);
    for (const row of list) expect(row.trim().split(/\s+/).slice(3, 5)).toEqual([String(FRAME_THUMBNAIL_LIMITS.width), '180']);
    expect(flat(await text(file))).not.toContain('No picture');

    // The pictures in page order are the threads' frames in frame order: each must be nearer in
    // brightness to its own frame than to the frame before or after it.
    const reference = await brightness(join(work, 'ramp.mp4'));
    expect(reference).toHaveLength(FRAMES);
    const images = join(work, 'images');
    await exec('mkdir', ['-p', images]);
    await exec('pdfimages', ['-j', file, join(images, 'img')]);
    const files = (await readdir(images)).sort();
    expect(files).toHaveLength(threads.length);
    for (const [i, thread] of threads.entries()) {
      const [seen] = await brightness(join(images, files[i]!));
      const distance = (frame: number) => (frame >= 0 && frame < FRAMES ? Math.abs(seen! - reference[frame]!) : Infinity);
      expect(
        distance(thread.frame),
        `frame ${thread.frame}: ${seen} vs ${reference.slice(Math.max(0, thread.frame - 1), thread.frame + 2).join(' ')}`,
      ).toBeLessThan(Math.min(distance(thread.frame - 1), distance(thread.frame + 1)));
    }
  });

  it('is for staff only: 401 without a session, 403 for customers (ours and another organization’s), 404 for a project or version that is not there', async () => {
    for (const headers of [who.owner, who.user, who.outsider]) {
      const csv = await call('GET', `/projects/${projectId}/comments/export?version=1&format=csv`, headers);
      const pdf = await call('GET', `/projects/${projectId}${pdfPath}`, headers);
      expect(pdf.statusCode).toBe(403);
      expect(pdf.statusCode).toBe(csv.statusCode);
      expect(pdf.headers['content-type']).toMatch(/^application\/json/);
    }
    expect((await call('GET', `/projects/${projectId}${pdfPath}`, {})).statusCode).toBe(401);
    expect((await call('GET', `/projects/999999${pdfPath}`, who.editor)).statusCode).toBe(404);
    expect((await call('GET', `/projects/${projectId}/comments/export?version=7&format=pdf`, who.editor)).statusCode).toBe(404);
    expect((await call('GET', `/projects/${projectId}/comments/export?version=1&format=docx`, who.editor)).statusCode).toBe(400);
  });

  it('still comes out, with a grey “No picture” box per thread, when the video cannot be read', async () => {
    const version = await server.db
      .selectFrom('projectVersions')
      .select('videoPath')
      .where('projectId', '=', projectId)
      .where('number', '=', 1)
      .executeTakeFirstOrThrow();
    await server.app.ctx.storage.deleteObject(version.videoPath);
    const { file } = await download('no-video.pdf');
    expect(await imageCount(file)).toBe(0);
    const words = flat(await text(file));
    expect(words.match(/No picture/g)).toHaveLength(threads.length);
    for (const thread of threads) expect(words).toContain(thread.timecode);
  });

  // Fonts do not depend on the database: checked once. Last, as it adds a thread and renames the project.
  it.runIf(name === DATABASES[0]!.name)(
    'draws every script the page shows in the title, the footer, a name, a comment and a drawing’s label (issue 36)',
    async () => {
      await server.db
        .updateTable('projects')
        .set({ name: `Film ${EVERY_SCRIPT}` })
        .where('id', '=', projectId)
        .execute();
      await server.db.updateTable('users').set({ firstName: '日本 🎬', lastName: 'Owner' }).where('email', '=', 'owner@demo.cutdesk.test').execute();
      await post(who.owner, {
        version: 1,
        frame: 50,
        text: EVERY_SCRIPT,
        drawing: { shapes: [{ kind: 'text', color: 'red', at: { x: 0.1, y: 0.5 }, text: '中文 👍' }] },
      });
      const { file } = await download('every-script.pdf');
      const words = await text(file);
      expect(missingScripts(words)).toEqual([]);
      // The title, the footer, the comment; the owner's name on two threads and the drawing's label.
      expect(words.normalize('NFKC').match(/中文/g)!.length).toBeGreaterThanOrEqual(4);
      expect(words.match(/🎬/g)!.length).toBeGreaterThanOrEqual(5);
      expect((await exec('pdfinfo', [file])).stdout).toContain(`Film ${EVERY_SCRIPT}`);
    },
  );
});
