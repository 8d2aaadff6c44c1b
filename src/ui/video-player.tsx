import { useEffect, useRef, useState } from 'react';

export const PLAYBACK_RATES = [0.7, 1, 1.5, 2] as const;

interface Props {
  src: string;
  poster?: string | null;
  /** Shown beside the player: the review count, two digits. */
  version?: number;
  width?: number;
  height?: number;
  minHeight?: number;
  maxHeight?: number;
}

/** The video player of both portals: 884×494 by default, rates 0.7/1/1.5/2, height within limits. */
export function VideoPlayer({ src, poster, version, width = 884, height = 494, minHeight = 320, maxHeight = 720 }: Props) {
  const video = useRef<HTMLVideoElement>(null);
  const [rate, setRate] = useState(1);
  useEffect(() => {
    if (video.current) video.current.playbackRate = rate;
  }, [rate]);
  return (
    <div className="player" style={{ maxWidth: width }}>
      <video ref={video} src={src} poster={poster ?? undefined} controls preload="metadata" style={{ width: '100%', height, minHeight, maxHeight }} data-testid="video-player" />
      <div className="player-bar">
        {version !== undefined && <span className="version">Version {String(version).padStart(2, '0')}</span>}
        <div className="rates" role="group" aria-label="Playback speed">
          {PLAYBACK_RATES.map((r) => (
            <button key={r} type="button" className={r === rate ? 'active' : ''} aria-pressed={r === rate} onClick={() => setRate(r)}>
              {r}×
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
