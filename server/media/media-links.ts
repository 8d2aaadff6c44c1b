import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MEDIA_FILES } from '../../src/domain/media.ts';
import type { SessionClaims } from '../../src/domain/session-standing.ts';
import type { AppContext } from '../context.ts';

/**
 * Media links: the final video's fields of a project (`finalVideoPreview`, `finalVideoThumbnail`,
 * `hdUrl`, `lowResUrl`) are stored as object keys and leave the server as stable app URLs,
 * `/api/v1/media/{token}/{file}`. A `<video>`, an `<img>` or a new tab cannot send the bearer
 * token, so the URL carries a signed capability: project, user, the session it was minted
 * for (the user's session version; when impersonating, the admin's id and version) and expiry,
 * HMAC-signed with a key derived from JWT_SECRET (every instance accepts it). The link route
 * re-reads the user, the admin and the project on every request, so a link ends with its
 * session (password reset, disable, delete, the impersonating admin's revocation: issue 9) and
 * when the project leaves the customer's sight, and it hands out a presigned URL of a few
 * minutes (hours for streaming), never the object itself.
 *
 * The expiry is rounded to the hour, so the same session reloading the page gets the same
 * URLs: the player does not restart when the project is fetched again.
 *
 * Token: `{projectId}[v{version}].{userId}.{sessionVersion}[.{impersonatorId}.{impersonatorSessionVersion}].{expires, base 36}.{signature}`.
 * Without `v{version}` the link plays the project's current final video (every link minted before
 * versions existed keeps working); with it, that review version's own files (issue 13: older
 * versions stay playable). The signature covers the whole body, the version included, so a link
 * to v1 cannot be edited into one to v2.
 */

export const MEDIA_LINK_HOURS = 12;
const HOUR_MS = 3_600_000;

/** Whose session a link is minted for: a session token's claims fit as they are. */
export type MediaSession = SessionClaims & { userId: number };

export interface MediaToken extends MediaSession {
  projectId: number;
  /** The review version the link plays; null for the project's current final video. */
  version: number | null;
  /** Unix seconds. */
  expires: number;
}

/**
 * v2 since links carry the session: a v1 signature never verifies as a v2 token, so no link
 * minted before can pass for one bound to a session.
 */
function keyOf(secret: string, version: 'v1' | 'v2' = 'v2'): Buffer {
  return createHmac('sha256', secret).update(`cutdesk media links ${version}`).digest();
}

/** Zip links sign with a key of their own: a media link never passes for a zip link, nor the reverse. */
function zipKeyOf(secret: string): Buffer {
  return createHmac('sha256', secret).update('cutdesk zip links v1').digest();
}

function signature(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(body).digest('base64url').slice(0, 32);
}

function signedToken(key: Buffer, target: string, session: MediaSession, expires: number): string {
  const impersonation = session.impersonatorId === null ? '' : `.${session.impersonatorId}.${session.impersonatorSessionVersion ?? 0}`;
  const body = `${target}.${session.userId}.${session.sessionVersion}${impersonation}.${expires.toString(36)}`;
  return `${body}.${signature(key, body)}`;
}

/** A token minted for the same session within the same hour is the same token. */
export function signMediaToken(secret: string, projectId: number, session: MediaSession, now = Date.now(), version: number | null = null): string {
  const expires = Math.floor((Math.ceil(now / HOUR_MS) * HOUR_MS + MEDIA_LINK_HOURS * HOUR_MS) / 1000);
  return signedToken(keyOf(secret), version === null ? `${projectId}` : `${projectId}v${version}`, session, expires);
}

/**
 * A project's zip link (issue 34) lives as long as a media link: the browser resumes a download
 * cut short with the same address (Range, If-Range), hours later if the network was away. Like a
 * media link it ends with the session it was minted for; a download under way is not cut when
 * it expires (checked at each request).
 */
export const ZIP_LINK_SECONDS = MEDIA_LINK_HOURS * 3600;

export function signZipToken(secret: string, projectId: number, session: MediaSession, now = Date.now()): string {
  return signedToken(zipKeyOf(secret), `${projectId}`, session, Math.floor(now / 1000) + ZIP_LINK_SECONDS);
}

function signedBy(key: Buffer, body: string, given: string): boolean {
  const expected = Buffer.from(signature(key, body));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

const TOKEN = /^(\d{1,10})(?:v(\d{1,6}))?\.(\d{1,10})\.(\d{1,10})(?:\.(\d{1,10})\.(\d{1,10}))?\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{32})$/;
/** Links minted before they carried the session (project.user.expires); they live 13 h at most. */
const V1_TOKEN = /^(\d{1,10}\.\d{1,10}\.[0-9a-z]{1,10})\.([A-Za-z0-9_-]{32})$/;

/** The token's claims, 'expired', or null when it is not one of ours. */
export function verifyMediaToken(secret: string, token: string, now = Date.now()): MediaToken | 'expired' | null {
  if (!TOKEN.test(token)) {
    // A v1 link cannot be tied to a session, so it is not honoured; it answers "expired,
    // reload the page" (410) rather than 404, as the page that holds it was fine a moment ago.
    const v1 = V1_TOKEN.exec(token);
    return v1 && signedBy(keyOf(secret, 'v1'), v1[1]!, v1[2]!) ? 'expired' : null;
  }
  return claimsOf(keyOf(secret), token, now);
}

/** A zip link's claims (never a version), 'expired', or null when it is not a zip link of ours. */
export function verifyZipToken(secret: string, token: string, now = Date.now()): MediaToken | 'expired' | null {
  const claims = claimsOf(zipKeyOf(secret), token, now);
  return claims !== null && claims !== 'expired' && claims.version !== null ? null : claims;
}

function claimsOf(key: Buffer, token: string, now: number): MediaToken | 'expired' | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, projectId, version, userId, sessionVersion, impersonatorId, impersonatorSessionVersion, expiresText, given] = match;
  if (!signedBy(key, token.slice(0, token.length - given!.length - 1), given!)) return null;
  const expires = parseInt(expiresText!, 36);
  if (expires * 1000 < now) return 'expired';
  return {
    projectId: Number(projectId),
    version: version === undefined ? null : Number(version),
    userId: Number(userId),
    sessionVersion: Number(sessionVersion),
    impersonatorId: impersonatorId === undefined ? null : Number(impersonatorId),
    impersonatorSessionVersion: impersonatorSessionVersion === undefined ? null : Number(impersonatorSessionVersion),
    expires,
  };
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
    return {
      ...(payload as object),
      data: { ...data, projects: data.projects.map((item: unknown) => (isProjectLike(item) ? mapProject(item, prefix, sign) : item)) },
    };
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
    // Minted for this session: the links end with it (issue 9).
    return mapProjectsIn(payload, apiPrefix, (projectId) => signMediaToken(ctx.config.jwtSecret, projectId, claims));
  };
}
