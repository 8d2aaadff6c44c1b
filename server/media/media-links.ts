import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MEDIA_FILES } from '../../src/domain/media.ts';
import type { AppContext } from '../context.ts';

/**
 * Media links: the final video's fields of a project (`finalVideoPreview`, `finalVideoThumbnail`,
 * `hdUrl`, `lowResUrl`) are stored as object keys and leave the server as stable app URLs,
 * `/api/v1/media/{token}/{file}`. A `<video>`, an `<img>` or a new tab cannot send the bearer
 * token, so the URL carries a signed capability: project, user and expiry, HMAC-signed with a
 * key derived from JWT_SECRET (every instance accepts it). The link route re-reads the user
 * and the project on every request, so a disabled user or a project that left the customer's
 * sight stops working at once, and hands out a presigned URL of a few minutes (hours for
 * streaming), never the object itself.
 *
 * The expiry is rounded to the hour, so the same page reloaded gives the same URLs: the
 * player does not restart when the project is fetched again.
 */

export const MEDIA_LINK_HOURS = 12;
const HOUR_MS = 3_600_000;

export interface MediaToken {
  projectId: number;
  userId: number;
  /** Unix seconds. */
  expires: number;
}

function keyOf(secret: string): Buffer {
  return createHmac('sha256', secret).update('cutdesk media links v1').digest();
}

function signature(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(body).digest('base64url').slice(0, 32);
}

export function signMediaToken(secret: string, projectId: number, userId: number, now = Date.now()): string {
  const expires = Math.floor((Math.ceil(now / HOUR_MS) * HOUR_MS + MEDIA_LINK_HOURS * HOUR_MS) / 1000);
  const body = `${projectId}.${userId}.${expires.toString(36)}`;
  return `${body}.${signature(keyOf(secret), body)}`;
}

/** The token's claims, 'expired', or null when it is not one of ours. */
export function verifyMediaToken(secret: string, token: string, now = Date.now()): MediaToken | 'expired' | null {
  const match = /^(\d{1,10})\.(\d{1,10})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match) return null;
  const body = `${match[1]}.${match[2]}.${match[3]}`;
  const expected = Buffer.from(signature(keyOf(secret), body));
  const given = Buffer.from(match[4]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const expires = parseInt(match[3]!, 36);
  if (expires * 1000 < now) return 'expired';
  return { projectId: Number(match[1]), userId: Number(match[2]), expires };
}

export function mediaUrl(prefix: string, token: string, file: keyof typeof MEDIA_FILES): string {
  return `${prefix}/media/${token}/${MEDIA_FILES[file]}`;
}

const MEDIA_FIELDS = {
  finalVideoPreview: 'preview',
  finalVideoThumbnail: 'thumbnail',
  hdUrl: 'hd',
  lowResUrl: 'lowRes',
} as const satisfies Record<string, keyof typeof MEDIA_FILES>;

type ProjectLike = Record<string, unknown> & { id: number };

function isProjectLike(value: unknown): value is ProjectLike {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.id === 'number' && 'finalVideoPreview' in record && 'hdUrl' in record && 'lowResUrl' in record && 'status' in record;
}

/** A stored key (not already a URL someone typed in). */
const isKey = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && !/^(https?:)?\//.test(value);

function mapProject(project: ProjectLike, prefix: string, sign: (projectId: number) => string): ProjectLike {
  let token: string | null = null;
  const out: ProjectLike = { ...project };
  for (const [field, file] of Object.entries(MEDIA_FIELDS)) {
    const value = project[field];
    if (!isKey(value)) continue;
    token ??= sign(project.id);
    out[field] = mediaUrl(prefix, token, file);
  }
  return out;
}

function projectsOf(payload: unknown): unknown[] {
  if (Array.isArray(payload)) return payload;
  if (isProjectLike(payload)) return [payload];
  const projects = (payload as { data?: { projects?: unknown } } | null)?.data?.projects;
  return Array.isArray(projects) ? projects : [];
}

/** Whether a body holds a project with a stored media key (most answers do not: no token check then). */
function hasMediaKeys(payload: unknown): boolean {
  return projectsOf(payload).some((item) => isProjectLike(item) && Object.keys(MEDIA_FIELDS).some((field) => isKey(item[field])));
}

/** Every project in a response body: the body itself, an array of them, or `data.projects`. */
export function mapProjectsIn(payload: unknown, prefix: string, sign: (projectId: number) => string): unknown {
  if (Array.isArray(payload)) return payload.map((item) => (isProjectLike(item) ? mapProject(item, prefix, sign) : item));
  if (isProjectLike(payload)) return mapProject(payload, prefix, sign);
  const data = (payload as { data?: { projects?: unknown } } | null)?.data;
  if (data && Array.isArray(data.projects)) {
    return { ...(payload as object), data: { ...data, projects: data.projects.map((item: unknown) => (isProjectLike(item) ? mapProject(item, prefix, sign) : item)) } };
  }
  return payload;
}

/**
 * API-wide preSerialization hook: projects leave with media links signed for the caller.
 * Registered once at the API scope (server/app.ts), so every route that answers projects,
 * today's and tomorrow's, hands out links instead of object keys.
 */
export function mediaLinksHook(ctx: AppContext, apiPrefix: string) {
  return async (request: FastifyRequest, _reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (typeof payload !== 'object' || payload === null || !hasMediaKeys(payload)) return payload;
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) return payload;
    const claims = await ctx.tokens.verify(header.slice(7).trim());
    if (!claims) return payload;
    return mapProjectsIn(payload, apiPrefix, (projectId) => signMediaToken(ctx.config.jwtSecret, projectId, claims.userId));
  };
}

export type { FastifyInstance };
