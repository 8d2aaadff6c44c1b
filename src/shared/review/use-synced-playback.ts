import { useCallback, useEffect, useState, type RefObject } from 'react';
import type { FrameRate } from '@/domain/timecode.ts';
import { frameSeconds, syncAction } from './compare-logic.ts';

export interface SyncedPlayback {
  playing: boolean;
  /** The leader's (A's) time in seconds. */
  time: number;
  /** The longer of the two durations, 0 until known. */
  duration: number;
  toggle: () => void;
  pause: () => void;
  seek: (seconds: number) => void;
  step: (frames: number) => void;
}

const duration = (video: HTMLVideoElement | null) => (video && Number.isFinite(video.duration) ? video.duration : 0);

/**
 * Two videos played as one: A leads, B follows. One play, pause or seek drives both; while
 * playing, every animation frame measures B's drift and corrects it (a speed nudge for a small
 * drift, a seek for a large one); on pause B is put on A's instant, so both show the same frame.
 * `source` changes (another version picked) re-sync at once.
 */
export function useSyncedPlayback(
  a: RefObject<HTMLVideoElement | null>,
  b: RefObject<HTMLVideoElement | null>,
  rate: FrameRate,
  source: string,
): SyncedPlayback {
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [length, setLength] = useState(0);
  const { num, den } = rate;

  const align = useCallback(
    (isPlaying: boolean) => {
      const leader = a.current;
      const follower = b.current;
      if (!leader || !follower) return;
      const action = syncAction(leader.currentTime, follower.currentTime, {
        playing: isPlaying,
        rate: { num, den },
        followerDuration: duration(follower) || null,
      });
      follower.playbackRate = action.playbackRate;
      if (action.kind === 'seek') follower.currentTime = action.to;
    },
    [a, b, num, den],
  );

  // While playing: the drift check every animation frame; the clock shown follows A.
  useEffect(() => {
    if (!playing) return;
    let handle = 0;
    const tick = () => {
      const leader = a.current;
      if (leader) setTime(leader.currentTime);
      align(true);
      handle = requestAnimationFrame(tick);
    };
    handle = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(handle);
  }, [playing, a, align]);

  // Lengths, the end of A, and a new version loaded in either video.
  useEffect(() => {
    const leader = a.current;
    const follower = b.current;
    if (!leader || !follower) return;
    const measure = () => setLength(Math.max(duration(leader), duration(follower)));
    const ended = () => {
      follower.pause();
      setPlaying(false);
      setTime(leader.currentTime);
    };
    const loaded = () => {
      measure();
      align(false);
    };
    for (const video of [leader, follower]) video.addEventListener('loadedmetadata', loaded);
    leader.addEventListener('ended', ended);
    return () => {
      for (const video of [leader, follower]) video.removeEventListener('loadedmetadata', loaded);
      leader.removeEventListener('ended', ended);
    };
  }, [a, b, align, source]);

  const pause = useCallback(() => {
    a.current?.pause();
    b.current?.pause();
    setPlaying(false);
    if (a.current) setTime(a.current.currentTime);
    align(false);
  }, [a, b, align]);

  const toggle = useCallback(() => {
    const leader = a.current;
    const follower = b.current;
    if (!leader || !follower) return;
    if (playing) return pause();
    if (leader.ended) leader.currentTime = 0;
    align(false);
    setPlaying(true);
    // Both start from the same instant; a refused play (autoplay policy, a source gone) stops both.
    void Promise.all([leader.play(), follower.currentTime < duration(follower) ? follower.play() : Promise.resolve()]).catch(pause);
  }, [a, b, playing, pause, align]);

  const seek = useCallback(
    (seconds: number) => {
      const leader = a.current;
      if (!leader) return;
      leader.currentTime = Math.max(0, Math.min(seconds, duration(leader) || seconds));
      setTime(leader.currentTime);
      align(playing);
    },
    [a, playing, align],
  );

  const step = useCallback(
    (frames: number) => {
      pause();
      const leader = a.current;
      if (leader) seek(leader.currentTime + frames * frameSeconds({ num, den }));
    },
    [a, pause, seek, num, den],
  );

  return { playing, time, duration: length, toggle, pause, seek, step };
}
