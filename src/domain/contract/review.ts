import { array, boolean, enums, number, object, string, type Infer } from 'superstruct';
import { define, describedAs, nullable, optional } from './schema-notes.ts';
import { validateDrawing } from '../drawing.ts';
import { COMMENT_TEXT_MAX, COMMENT_TEXT_MIN, REVIEW_MESSAGES, validateCommentText } from '../review-rules.ts';
import { COMMENT_AUTHOR_ROLES } from '../share-links.ts';
import { defineOperation } from './define.ts';
import { Id, MAX_ID, queryInt, textSchema, wholeNumberSchema } from './fields.ts';

/**
 * Frame-accurate review: the versions of a project's final video and the time-coded comments
 * on them. Frames are whole numbers from 0 (the first frame); `endFrame` is exclusive.
 */

const isFrame = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_ID;

const Frame = describedAs(
  define<number>('frame', (value) => isFrame(value) || REVIEW_MESSAGES.frameInvalid),
  wholeNumberSchema(0, MAX_ID),
);
const EndFrame = describedAs(
  define<number>('endFrame', (value) => (isFrame(value) && value > 0) || REVIEW_MESSAGES.endFrameInvalid),
  wholeNumberSchema(1, MAX_ID),
);
const VersionNumber = describedAs(
  define<number>(
    'version',
    (value) => (Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_ID) || 'Must be a version number: a whole number from 1.',
  ),
  wholeNumberSchema(1, MAX_ID),
);
/** Comment text by the review rules (1–2000 characters after trim, storable). */
const CommentText = describedAs(
  define<string>('commentText', (value) => {
    if (typeof value !== 'string') return REVIEW_MESSAGES.textRequired;
    return validateCommentText(value) ?? true;
  }),
  textSchema(COMMENT_TEXT_MIN, COMMENT_TEXT_MAX),
);
/** A drawing on the frame, checked by src/domain/drawing.ts (its message is the field's). */
const DrawingField = describedAs(
  define<unknown>('drawing', (value) => {
    const result = validateDrawing(value);
    return result.ok || result.message;
  }),
  {},
);

/** POST projects/{id}/comments: a new thread (frame, optional endFrame and drawing) or a reply (parentId, no frame). */
export const CreateCommentBodyStruct = object({
  version: VersionNumber,
  frame: optional(nullable(Frame)),
  endFrame: optional(nullable(EndFrame)),
  text: CommentText,
  drawing: optional(nullable(DrawingField)),
  parentId: optional(nullable(Id)),
});
export type CreateCommentBody = Infer<typeof CreateCommentBodyStruct>;

/** PATCH projects/{id}/comments/{commentId}: new text (author), resolve or reopen (thread: staff and author). */
export const UpdateCommentBodyStruct = object({
  text: optional(CommentText),
  resolved: optional(boolean()),
});
export type UpdateCommentBody = Infer<typeof UpdateCommentBodyStruct>;

export const CommentsQueryStruct = object({ version: queryInt(1, MAX_ID) });

/** Markers for an editing application (csv, edl, fcpxml), or a printable PDF with a picture of each commented frame. */
export const EXPORT_FORMATS = ['csv', 'edl', 'fcpxml', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const CommentsExportQueryStruct = object({ version: queryInt(1, MAX_ID), format: enums(EXPORT_FORMATS) });

const FrameRateStruct = object({ num: number(), den: number() });

export const VersionStruct = object({
  number: number(),
  createdAt: string(),
  /** When staff sent it to review; null while it is in editing (customers never see those). */
  releasedAt: nullable(string()),
  /** The project's final video now (older versions are kept for their comments). */
  current: boolean(),
  /** The probed rate, or 30/1 assumed while `frameRateKnown` is false (not probed yet). */
  frameRate: FrameRateStruct,
  frameRateKnown: boolean(),
  durationFrames: nullable(number()),
  width: nullable(number()),
  height: nullable(number()),
  /**
   * Media links signed for the caller (12 h), for every version listed: the current version's are
   * the project's own links; an older version's play its own files (a link names its version).
   */
  media: nullable(object({ preview: string(), stream: string(), thumbnail: string() })),
});
export type Version = Infer<typeof VersionStruct>;
export const VersionListStruct = object({ versions: array(VersionStruct) });

const commentFields = {
  id: number(),
  version: number(),
  /** The thread's first comment, for a reply; null for a thread. */
  parentId: nullable(number()),
  frame: number(),
  endFrame: nullable(number()),
  /** SMPTE timecode of `frame` at the version's rate (`;` before the frames at drop-frame rates). */
  timecode: string(),
  endTimecode: nullable(string()),
  /** Plain text: render it as text, never as HTML. Empty for a deleted thread kept for its replies. */
  text: string(),
  drawing: nullable(DrawingField),
  author: object({ name: string(), role: enums(COMMENT_AUTHOR_ROLES) }),
  resolved: boolean(),
  resolvedAt: nullable(string()),
  createdAt: string(),
  updatedAt: string(),
  /** A deleted thread shown only because replies answer it (no text, no drawing). */
  deleted: boolean(),
  canEdit: boolean(),
  canResolve: boolean(),
  canDelete: boolean(),
};
export const CommentStruct = object(commentFields);
export type Comment = Infer<typeof CommentStruct>;
export const ThreadStruct = object({ ...commentFields, replies: array(CommentStruct) });
export type Thread = Infer<typeof ThreadStruct>;
export const CommentListStruct = object({
  version: number(),
  frameRate: FrameRateStruct,
  frameRateKnown: boolean(),
  /** Threads by frame, each with its replies oldest first. */
  comments: array(ThreadStruct),
});
export type CommentList = Infer<typeof CommentListStruct>;

export const listVersions = defineOperation({ method: 'GET', path: '/projects/{id}/versions', access: 'signed-in', answer: VersionListStruct });
export const listComments = defineOperation({
  method: 'GET',
  path: '/projects/{id}/comments',
  access: 'signed-in',
  query: CommentsQueryStruct,
  answer: CommentListStruct,
});
/** The thread of one comment: what a page reads when the event stream names a changed comment. */
export const getThread = defineOperation({ method: 'GET', path: '/projects/{id}/comments/{commentId}', access: 'signed-in', answer: ThreadStruct });
export const createComment = defineOperation({
  method: 'POST',
  path: '/projects/{id}/comments',
  access: 'signed-in',
  body: CreateCommentBodyStruct,
  answer: CommentStruct,
  status: 201,
});
export const updateComment = defineOperation({
  method: 'PATCH',
  path: '/projects/{id}/comments/{commentId}',
  access: 'signed-in',
  body: UpdateCommentBodyStruct,
  answer: CommentStruct,
});
export const deleteComment = defineOperation({ method: 'DELETE', path: '/projects/{id}/comments/{commentId}', access: 'signed-in' });
/** Staff import the markers into their editing application. Answers the file (text or PDF), not JSON. */
export const exportComments = defineOperation({
  method: 'GET',
  path: '/projects/{id}/comments/export',
  access: 'staff',
  query: CommentsExportQueryStruct,
  status: 200,
});
