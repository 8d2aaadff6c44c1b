import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateDrawing, type Drawing } from '../../src/domain/drawing.ts';
import { derivedKey } from '../../src/domain/media.ts';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import type { RoleName } from '../../src/domain/roles.ts';
import { uploadPrefix } from '../../src/domain/uploads.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import { mediaTools, probe, run, toolsAvailable, type MediaTools } from '../media/ffmpeg.ts';
import { enqueueEarlierVersionMedia, enqueueFinalVideoMedia } from '../media/pipeline.ts';
import { demoSeedRepo } from '../repositories/demo-seed.ts';
import { versionMeasure } from '../review/measure.ts';
import { DEMO_ORGANIZATION } from './demo.ts';

/**
 * Issue 13: the demo's projects in review and approved get real review material: short test
 * videos (colour bars, a burnt-in timecode, a tone) made by ffmpeg, their versions and a few
 * comments by the demo users, and the media jobs the product queues for a delivered final video
 * (so previews, HLS and thumbnails come from the normal pipeline), plus the poster, stream and
 * preview of each earlier version, so v01 plays and compares as a delivered v01 would. main.ts runs it in the
 * background once the object store is connected, so a first `npm start` listens at once.
 *
 * Idempotent per project: a demo project that already has a version (seeded on an earlier start,
 * or delivered by someone trying the product) is left alone, under the project's row lock, so a
 * restart or a second instance never duplicates anything. A start interrupted while the clips
 * were being made simply makes them on the next start.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Long enough to comment at several moments, short enough to make in about a second each. */
const CLIP_SECONDS = 10;

export const DEMO_MEDIA_MESSAGES = {
  ffmpegMissing: 'ffmpeg not found: demo videos skipped',
} as const;

/** The statuses demo.ts gives the projects that get videos; a project moved on since is left alone. */
const SEEDED_STATUSES: ProjectStatus[] = ['IN_REVIEW', 'APPROVED'];

type Rate = { num: number; den: number };
const PAL: Rate = { num: 25, den: 1 };
/** 29.97 fps: the review player shows drop-frame timecode (`;`) for it. */
const NTSC: Rate = { num: 30000, den: 1001 };

type Author = 'OWNER' | 'USER' | 'EDITOR' | 'ADMIN';

interface DemoComment {
  author: Author;
  /** Seconds into the clip; stored as the frame at that moment. */
  at: number;
  /** For a range comment: where it ends. */
  until?: number;
  text: string;
  drawing?: Drawing;
  resolved?: boolean;
  replies?: { author: Author; text: string }[];
}

interface DemoVersion {
  /** Shown under the bars, with the project's name, so the cut on screen is obviously this one. */
  label: string;
  rate: Rate;
  /** Tone pitch: v01 and v02 do not sound alike either. */
  toneHz: number;
  pattern: 'smptehdbars' | 'testsrc2';
  /** How long before now staff sent it to review. */
  releasedAgo: number;
  comments: DemoComment[];
}

interface DemoProject {
  name: string;
  versions: DemoVersion[];
  /** Review rounds the project went through (one per released version). */
  reviews: number;
}

const CIRCLED_LOGO: Drawing = {
  shapes: [
    { kind: 'rectangle', color: 'red', x: 0.62, y: 0.05, width: 0.3, height: 0.2 },
    { kind: 'arrow', color: 'yellow', from: { x: 0.45, y: 0.35 }, to: { x: 0.6, y: 0.2 } },
    { kind: 'text', color: 'white', at: { x: 0.3, y: 0.4 }, text: 'Logo too small here' },
  ],
};

/** The demo projects that get media, by the name and status demo.ts seeds them with. */
const DEMO_PROJECTS: DemoProject[] = [
  {
    // Two rounds: v01 came back with changes requested, v02 is the cut in review now.
    name: 'Quarterly highlights',
    reviews: 2,
    versions: [
      {
        label: 'v01',
        rate: PAL,
        toneHz: 440,
        pattern: 'smptehdbars',
        releasedAgo: 4 * DAY,
        comments: [
          {
            author: 'OWNER',
            at: 1.2,
            text: 'Please make the logo bigger in the opening shot.',
            drawing: CIRCLED_LOGO,
            resolved: true,
            replies: [{ author: 'EDITOR', text: 'Done in v02: the logo is 40% larger.' }],
          },
          { author: 'USER', at: 4, until: 6.5, text: 'The music is too loud under the interview.', resolved: true },
          { author: 'OWNER', at: 8.4, text: 'Can we end on the team photo instead?' },
        ],
      },
      {
        label: 'v02',
        rate: PAL,
        toneHz: 660,
        pattern: 'testsrc2',
        releasedAgo: DAY,
        comments: [
          {
            author: 'OWNER',
            at: 2.5,
            text: 'Much better. Could the lower third stay a second longer?',
            replies: [{ author: 'ADMIN', text: 'Noted, Eddie will adjust it.' }],
          },
          { author: 'USER', at: 7, text: 'Typo in the caption: "Quartely".' },
        ],
      },
    ],
  },
  {
    name: 'Brand anthem',
    reviews: 1,
    versions: [
      {
        label: 'v01',
        rate: NTSC,
        toneHz: 523,
        pattern: 'smptehdbars',
        releasedAgo: 20 * HOUR,
        comments: [
          {
            author: 'OWNER',
            at: 3.3,
            text: 'Love the pacing. Is the colour grade final?',
            replies: [{ author: 'EDITOR', text: 'Not yet, the grade comes in the next pass.' }],
          },
        ],
      },
    ],
  },
  {
    name: 'Conference recap',
    reviews: 1,
    versions: [
      {
        label: 'v01',
        rate: NTSC,
        toneHz: 880,
        pattern: 'testsrc2',
        releasedAgo: 6 * DAY,
        comments: [{ author: 'OWNER', at: 5, text: 'Perfect, approved!', resolved: true }],
      },
    ],
  },
];

export interface DemoMediaLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface DemoMediaResult {
  /** Names of the projects that got their videos now. */
  seeded: string[];
  skipped: 'ffmpeg-missing' | null;
}

/** `text` for ffmpeg's filter syntax: its separators escaped. */
const filterText = (text: string) => text.replace(/[\\':;,[\]=]/g, (c) => `\\${c}`);

/** The drawtext filters (name, version, running timecode), or none when this ffmpeg lacks drawtext. */
function overlays(project: string, version: DemoVersion, withText: boolean): string[] {
  if (!withText) return [];
  const box = 'fontcolor=white:box=1:boxcolor=black@0.7:boxborderw=14:x=(w-tw)/2';
  // Drop-frame notation (`;`) for 29.97, as the review player writes it; both start at zero like the player.
  const start = version.rate.den === 1 ? '00\\:00\\:00\\:00' : '00\\:00\\:00\\;00';
  return [
    `drawtext=text='${filterText(`${project} ${version.label}`)}':fontsize=44:${box}:y=h*0.07`,
    `drawtext=timecode='${start}':rate=${version.rate.num}/${version.rate.den}:fontsize=64:${box}:y=h*0.8`,
  ];
}

/** How a demo cut is made: `makeDemoClip`, or (tests) the same clips made once and copied. */
export type DemoClipMaker = (tools: MediaTools, project: string, version: DemoVersion, file: string, withText: boolean) => Promise<void>;

/** An 8–12 s 1280×720 H.264/AAC MP4 of `version` at `file`. */
export const makeDemoClip: DemoClipMaker = async (tools, project, version, file, withText) => {
  const rate = `${version.rate.num}/${version.rate.den}`;
  const filters = overlays(project, version, withText);
  await run(
    tools.ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-y',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `${version.pattern}=size=1280x720:rate=${rate}:duration=${CLIP_SECONDS}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${version.toneHz}:sample_rate=48000:duration=${CLIP_SECONDS}`,
      ...(filters.length ? ['-vf', filters.join(',')] : []),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '26',
      '-pix_fmt',
      'yuv420p',
      '-r',
      rate,
      '-c:a',
      'aac',
      '-b:a',
      '96k',
      '-shortest',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      file,
    ],
    { timeoutMs: 120_000 },
  );
};

/** Whether this ffmpeg can burn in text (drawtext needs libfreetype, which minimal builds lack). */
async function hasDrawtext(tools: MediaTools): Promise<boolean> {
  try {
    return /\bdrawtext\b/.test(await run(tools.ffmpeg, ['-hide_banner', '-filters'], { timeoutMs: 10_000 }));
  } catch {
    return false;
  }
}

/** The demo projects still without any version, with their ids. */
async function pendingProjects(db: Db): Promise<{ id: number; plan: DemoProject }[]> {
  const rows = await demoSeedRepo(db).projectsWithoutVersions(
    DEMO_ORGANIZATION,
    DEMO_PROJECTS.map((project) => project.name),
    SEEDED_STATUSES,
  );
  return rows.map((row) => ({ id: row.id, plan: DEMO_PROJECTS.find((project) => project.name === row.name)! }));
}

async function demoAuthors(db: Db): Promise<Record<Author, { id: number; name: string; role: RoleName }>> {
  const emails: Record<Author, string> = {
    OWNER: 'owner@demo.cutdesk.test',
    USER: 'user@demo.cutdesk.test',
    EDITOR: 'editor@demo.cutdesk.test',
    ADMIN: 'admin@demo.cutdesk.test',
  };
  const rows = await demoSeedRepo(db).usersByEmail(Object.values(emails));
  const out = {} as Record<Author, { id: number; name: string; role: RoleName }>;
  for (const [author, email] of Object.entries(emails) as [Author, string][]) {
    const row = rows.find((r) => r.email === email);
    if (!row) throw new Error(`demo user ${email} is missing`);
    out[author] = { id: row.id, name: `${row.firstName} ${row.lastName}`.trim(), role: row.role };
  }
  return out;
}

interface MadeClip {
  key: string;
  size: number;
  measure: ReturnType<typeof versionMeasure>;
}

/** One comment as a reviewer wrote it `at` (inserted directly: the repository stamps "now"). Answers its id. */
async function insertComment(
  rows: ReturnType<typeof demoSeedRepo>,
  comment: {
    projectId: number;
    versionId: number;
    parentId: number | null;
    author: { id: number; name: string; role: RoleName };
    frame: number;
    endFrame: number | null;
    text: string;
    drawing: Drawing | null;
    at: Date;
    resolved: { at: Date; by: number } | null;
  },
): Promise<number> {
  return rows.insertComment({
    projectId: comment.projectId,
    versionId: comment.versionId,
    parentId: comment.parentId,
    authorUserId: comment.author.id,
    authorName: comment.author.name,
    authorRole: comment.author.role,
    frame: comment.frame,
    endFrame: comment.endFrame,
    text: comment.text,
    drawing: comment.drawing === null ? null : JSON.stringify(comment.drawing),
    resolvedAt: comment.resolved?.at ?? null,
    resolvedBy: comment.resolved?.by ?? null,
    createdAt: comment.at,
    updatedAt: comment.resolved?.at ?? comment.at,
    deletedAt: null,
  });
}

/** Versions, comments and the project's final video, in one transaction; false when another start got there first. */
async function recordProject(db: Db, projectId: number, plan: DemoProject, clips: MadeClip[], now: number): Promise<boolean> {
  const authors = await demoAuthors(db);
  return db.transaction().execute(async (tx) => {
    // Someone may have used the project while the clips were made (requested changes, delivered a cut).
    const rows = demoSeedRepo(tx);
    const project = await rows.lockProjectForVersions(projectId);
    if (!project || !SEEDED_STATUSES.includes(project.status) || project.finalVideoPath !== null || project.hasVersion) return false;
    for (const [index, version] of plan.versions.entries()) {
      const clip = clips[index]!;
      const released = new Date(now - version.releasedAgo);
      const versionId = await rows.insertVersion({
        projectId,
        number: index + 1,
        videoPath: clip.key,
        videoSize: clip.size,
        previewPath: derivedKey(clip.key, 'proxy'),
        frameRateNum: clip.measure.frameRate?.num ?? null,
        frameRateDen: clip.measure.frameRate?.den ?? null,
        durationFrames: clip.measure.durationFrames,
        width: clip.measure.width,
        height: clip.measure.height,
        releasedAt: released,
        createdAt: new Date(released.getTime() - 2 * HOUR),
        updatedAt: released,
      });
      const rate = clip.measure.frameRate ?? version.rate;
      const frameAt = (seconds: number) => Math.round((seconds * rate.num) / rate.den);
      for (const [n, comment] of version.comments.entries()) {
        const author = authors[comment.author];
        const written = new Date(released.getTime() + (n + 1) * 40 * 60_000);
        const drawing = comment.drawing ? validateDrawing(comment.drawing) : null;
        if (drawing && !drawing.ok) throw new Error(`demo drawing refused: ${drawing.message}`);
        const frame = frameAt(comment.at);
        const resolvedAt = comment.resolved ? new Date(written.getTime() + 3 * HOUR) : null;
        const thread = await insertComment(rows, {
          projectId,
          versionId,
          parentId: null,
          author,
          frame,
          endFrame: comment.until === undefined ? null : frameAt(comment.until),
          text: comment.text,
          drawing: drawing?.ok ? drawing.drawing : null,
          at: written,
          resolved: resolvedAt ? { at: resolvedAt, by: authors.EDITOR.id } : null,
        });
        for (const [r, reply] of (comment.replies ?? []).entries()) {
          const at = new Date(written.getTime() + (r + 1) * 25 * 60_000);
          await insertComment(rows, {
            projectId,
            versionId,
            parentId: thread,
            author: authors[reply.author],
            frame,
            endFrame: null,
            text: reply.text,
            drawing: null,
            at,
            resolved: null,
          });
        }
      }
    }
    const current = clips[clips.length - 1]!;
    await rows.setFinalVideo(projectId, { path: current.key, size: current.size, preview: derivedKey(current.key, 'proxy'), reviews: plan.reviews });
    return true;
  });
}

/** File name of a demo cut, as an editor would name the export. */
const clipName = (project: string, label: string) => `${project.replace(/[^A-Za-z0-9]+/g, '_')}_${label}.mp4`;

/**
 * Makes the demo's review videos, versions and comments (see the top of this file). Without
 * ffmpeg it logs DEMO_MEDIA_MESSAGES.ffmpegMissing and changes nothing. Needs the object store
 * connected.
 */
export async function seedDemoMedia(
  ctx: AppContext,
  log: DemoMediaLog,
  options: { tools?: MediaTools; now?: number; makeClip?: DemoClipMaker } = {},
): Promise<DemoMediaResult> {
  const pending = await pendingProjects(ctx.db);
  if (pending.length === 0) return { seeded: [], skipped: null };
  const tools = options.tools ?? mediaTools();
  if (!(await toolsAvailable(tools))) {
    log.warn(DEMO_MEDIA_MESSAGES.ffmpegMissing);
    return { seeded: [], skipped: 'ffmpeg-missing' };
  }
  const withText = await hasDrawtext(tools);
  if (!withText) log.info('demo videos: this ffmpeg has no drawtext filter, so the clips carry no burnt-in timecode');
  const now = options.now ?? Date.now();
  const makeClip = options.makeClip ?? makeDemoClip;
  const dir = await mkdtemp(join(tmpdir(), 'cutdesk-demo-media-'));
  const seeded: string[] = [];
  try {
    for (const { id, plan } of pending) {
      const clips: MadeClip[] = [];
      for (const version of plan.versions) {
        const name = clipName(plan.name, version.label);
        const file = join(dir, name);
        await makeClip(tools, plan.name, version, file, withText);
        const info = await probe(tools, { url: file, demuxer: 'mov' });
        const body = await readFile(file);
        const key = `${uploadPrefix(id, 'deliverable')}${name}`;
        await ctx.storage.putObject(key, body, 'video/mp4');
        clips.push({ key, size: body.length, measure: versionMeasure(info) });
      }
      if (!(await recordProject(ctx.db, id, plan, clips, now))) continue;
      // As registerDeliverable does: the normal pipeline makes the preview, HLS and thumbnail.
      await enqueueFinalVideoMedia(ctx, id, clips[clips.length - 1]!.key);
      // The earlier cuts were never the current one here: they get what plays them (version switcher, compare).
      for (const clip of clips.slice(0, -1)) await enqueueEarlierVersionMedia(ctx, id, clip.key);
      seeded.push(plan.name);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (seeded.length) log.info(`demo videos: ${seeded.length} projects got review videos and comments (${seeded.join(', ')})`);
  return { seeded, skipped: null };
}
