import { useEffect, useRef, useState, type ReactNode } from 'react';

export const PLAYBACK_RATES = [0.7, 1, 1.5, 2] as const;

/** Which way the video reaches the element: native HLS (Safari), hls.js (Media Source), or the MP4. */
export type PlayerEngine = 'native-hls' | 'hls.js' | 'mp4';

interface Props {
  /** The MP4 (the low-res preview): played where HLS cannot be. */
  src: string;
  /** The HLS rendition (master playlist), preferred when the browser can play it one way or another. */
  hlsSrc?: string | null;
  poster?: string | null;
  /** Shown beside the player: the review count, two digits. */
  version?: number;
  width?: number;
  height?: number;
  minHeight?: number;
  maxHeight?: number;
  /** Called when the stream and the MP4 both fail to load. */
  onError?: (message: string) => void;
  /** Hands the <video> element to whoever drives it (the review: frame stepping, seeking), null when it goes. */
  onVideo?: (video: HTMLVideoElement | null) => void;
  /** Drawn over the picture (the review's drawings), positioned by its own CSS inside the stage. */
  overlay?: ReactNode;
}

const HLS_TYPE = 'application/vnd.apple.mpegurl';

/**
 * The video player of both portals (C§2, A§2): 884×494 by default, rates 0.7/1/1.5/2, height
 * within the spec's limits, the version beside it. Streams HLS natively where the browser
 * can (Safari), through hls.js where it has Media Source Extensions, and plays the MP4
 * otherwise or when the stream fails.
 */
export function VideoPlayer({ src, hlsSrc, poster, version, width = 884, height = 494, minHeight = 320, maxHeight = 720, onError, onVideo, overlay }: Props) {
  const video = useRef<HTMLVideoElement>(null);
  const [rate, setRate] = useState(1);
  const [engine, setEngine] = useState<PlayerEngine | null>(null);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    let destroyed = false;
    let destroy: (() => void) | undefined;
    const playMp4 = () => {
      setEngine('mp4');
      element.src = src;
    };
    if (hlsSrc && element.canPlayType(HLS_TYPE)) {
      setEngine('native-hls');
      element.src = hlsSrc;
    } else if (hlsSrc) {
      void import('hls.js').then(({ default: Hls }) => {
        if (destroyed) return;
        if (!Hls.isSupported()) return playMp4();
        const hls = new Hls({ capLevelToPlayerSize: true, startLevel: -1 });
        destroy = () => hls.destroy();
        hls.on(Hls.Events.ERROR, (_event, data) => {
          if (!data.fatal) return;
          // A stream that cannot recover falls back to the MP4 rather than a black box.
          hls.destroy();
          destroy = undefined;
          playMp4();
        });
        hls.loadSource(hlsSrc);
        hls.attachMedia(element);
        setEngine('hls.js');
      }, playMp4);
    } else {
      playMp4();
    }
    return () => {
      destroyed = true;
      destroy?.();
      element.removeAttribute('src');
      element.load();
    };
  }, [src, hlsSrc]);

  useEffect(() => {
    if (video.current) video.current.playbackRate = rate;
  }, [rate, engine]);

  useEffect(() => {
    if (!onVideo) return;
    onVideo(video.current);
    return () => onVideo(null);
  }, [onVideo]);

  return (
    <div className="player" style={{ maxWidth: width }}>
      <div className="player-stage">
        <video
          ref={video}
          poster={poster ?? undefined}
          controls
          preload="metadata"
          playsInline
          style={{ width: '100%', height, minHeight, maxHeight }}
          data-testid="video-player"
          data-engine={engine ?? undefined}
          onError={() => engine === 'mp4' && onError?.('The video could not be played.')}
          onRateChange={(e) => setRate(e.currentTarget.playbackRate)}
        />
        {overlay}
      </div>
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
