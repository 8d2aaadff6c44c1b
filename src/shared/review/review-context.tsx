import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Thread, Version } from '@/domain/contract/review.ts';
import type { DrawingColor, Shape, ShapeKind } from '@/domain/drawing.ts';
import type { ProjectStatus } from '@/domain/project-status.ts';
import { isCommentingOpen } from '@/domain/review-rules.ts';
import type { FrameRate } from '@/domain/timecode.ts';
import { useQuery } from '@/lib/query.ts';
import { memberSource, type ReviewSource } from './review-source.ts';
import { clampFrame, defaultVersion, frameAt, openCount, seekSeconds, sortThreads } from './review-logic.ts';

const ASSUMED_RATE: FrameRate = { num: 30, den: 1 };

export interface ReviewState {
  projectId: number;
  /** The API the review reads and writes through (the project's, or a guest's share link). */
  source: ReviewSource;
  projectName: string;
  /** New comments, edits and resolutions are accepted (not approved or archived). */
  open: boolean;
  versions: readonly Version[];
  versionsLoading: boolean;
  versionsError: unknown;
  /** The version whose comments the panel shows. */
  version: Version | null;
  selectVersion: (number: number) => void;
  /**
   * The version the player plays: the chosen one when it has media links, else the current one;
   * null when none may be played.
   */
  playable: Version | null;
  /** The selected version is the one in the player: its comments can be placed and sought. */
  inPlayer: boolean;
  rate: FrameRate;
  threads: Thread[];
  threadsLoading: boolean;
  threadsError: unknown;
  /** Open threads of the selected version. */
  openThreads: number;
  video: HTMLVideoElement | null;
  setVideo: (video: HTMLVideoElement | null) => void;
  frame: number;
  playing: boolean;
  totalFrames: number | null;
  markIn: number | null;
  markOut: number | null;
  setMarkIn: (frame: number | null) => void;
  setMarkOut: (frame: number | null) => void;
  seekFrame: (frame: number) => void;
  pause: () => void;
  /** The drawing being made for the next comment (null while not drawing). */
  draft: Shape[] | null;
  setDraft: (shapes: Shape[] | null) => void;
  tool: ShapeKind;
  setTool: (tool: ShapeKind) => void;
  color: DrawingColor;
  setColor: (color: DrawingColor) => void;
  /** Thread ids in the list, to scroll the one the playhead reaches into view. */
  selected: number | null;
  setSelected: (id: number | null) => void;
}

const ReviewContext = createContext<ReviewState | null>(null);

interface Props {
  project: { id: number; name: string; status: { name: ProjectStatus } };
  /** False while the page shows no review (no video yet): nothing is loaded. */
  enabled: boolean;
  /** The project's own API unless given (a guest's page gives its share link's). */
  source?: ReviewSource;
  children: ReactNode;
}

/**
 * Holds a project page's review together: the versions, the chosen version's threads, the
 * player's <video> (handed over by the player through onVideo) and its playhead in frames,
 * the in/out marks and the drawing in progress. The panel, the timeline, the keyboard and the
 * overlay read it; the page wraps the player and the panel in it.
 */
export function ReviewProvider({ project, enabled, source: given, children }: Props) {
  const projectId = project.id;
  const source = useMemo(() => given ?? memberSource(projectId), [given, projectId]);
  const versionsQuery = useQuery({ queryKey: source.versionsKey, queryFn: () => source.listVersions(), enabled });
  const versions = useMemo(() => versionsQuery.data ?? [], [versionsQuery.data]);
  const [chosen, setChosen] = useState<number | null>(null);
  const version = versions.find((v) => v.number === chosen) ?? defaultVersion(versions);
  const commentsQuery = useQuery({
    queryKey: source.commentsKey(version?.number ?? 0),
    queryFn: () => source.listComments(version!.number),
    enabled: enabled && version !== null,
  });
  // Older versions play too (issue 13): choosing one puts it in the page's player.
  const current = versions.find((v) => v.current && v.media !== null) ?? null;
  const playable = version?.media ? version : current;
  const inPlayer = version !== null && playable !== null && version.number === playable.number;
  const rate = (inPlayer ? playable.frameRate : (commentsQuery.data?.frameRate ?? version?.frameRate)) ?? ASSUMED_RATE;
  const threads = useMemo(() => sortThreads(commentsQuery.data?.comments ?? []), [commentsQuery.data]);

  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [frame, setFrame] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [mediaFrames, setMediaFrames] = useState<number | null>(null);
  const [markIn, setMarkIn] = useState<number | null>(null);
  const [markOut, setMarkOut] = useState<number | null>(null);
  const [draft, setDraft] = useState<Shape[] | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [tool, setTool] = useState<ShapeKind>('arrow');
  const [color, setColor] = useState<DrawingColor>('red');
  const playerRate = playable?.frameRate ?? ASSUMED_RATE;
  const { num, den } = playerRate;

  // The playhead in frames: every animation frame while playing, on each seek otherwise.
  useEffect(() => {
    if (!video) return;
    const rateNow = { num, den };
    let handle = 0;
    const read = () => setFrame(frameAt(video.currentTime, rateNow));
    const readLength = () => setMediaFrames(Number.isFinite(video.duration) && video.duration > 0 ? Math.round((video.duration * num) / den) : null);
    const tick = () => {
      read();
      handle = requestAnimationFrame(tick);
    };
    const onPlay = () => {
      setPlaying(true);
      cancelAnimationFrame(handle);
      handle = requestAnimationFrame(tick);
    };
    const onPause = () => {
      setPlaying(false);
      cancelAnimationFrame(handle);
      read();
    };
    read();
    readLength();
    setPlaying(!video.paused);
    if (!video.paused) onPlay();
    const listeners: [keyof HTMLVideoElementEventMap, () => void][] = [
      ['play', onPlay],
      ['pause', onPause],
      ['ended', onPause],
      ['seeked', read],
      ['timeupdate', read],
      ['loadedmetadata', readLength],
      ['durationchange', readLength],
    ];
    for (const [type, listener] of listeners) video.addEventListener(type, listener);
    return () => {
      cancelAnimationFrame(handle);
      for (const [type, listener] of listeners) video.removeEventListener(type, listener);
    };
  }, [video, num, den]);

  const totalFrames = playable?.durationFrames ?? mediaFrames;
  const pause = useCallback(() => video?.pause(), [video]);
  const seekFrame = useCallback(
    (target: number) => {
      if (!video) return;
      video.pause();
      const to = clampFrame(target, totalFrames);
      video.currentTime = seekSeconds(to, { num, den });
      setFrame(to);
    },
    [video, totalFrames, num, den],
  );
  const selectVersion = useCallback((number: number) => {
    setChosen(number);
    setMarkIn(null);
    setMarkOut(null);
    setDraft(null);
  }, []);

  const value: ReviewState = {
    projectId,
    source,
    projectName: project.name,
    open: isCommentingOpen(project.status.name),
    versions,
    versionsLoading: versionsQuery.isPending && enabled,
    versionsError: versionsQuery.error,
    version,
    selectVersion,
    playable,
    inPlayer,
    rate,
    threads,
    threadsLoading: commentsQuery.isPending && version !== null,
    threadsError: commentsQuery.error,
    openThreads: openCount(threads),
    video,
    setVideo,
    frame,
    playing,
    totalFrames,
    markIn,
    markOut,
    setMarkIn,
    setMarkOut,
    seekFrame,
    pause,
    draft,
    setDraft,
    tool,
    setTool,
    color,
    setColor,
    selected,
    setSelected,
  };
  return <ReviewContext.Provider value={value}>{children}</ReviewContext.Provider>;
}

/** The review of the page (inside ReviewProvider), or null outside one. */
export function useReview(): ReviewState | null {
  return useContext(ReviewContext);
}
