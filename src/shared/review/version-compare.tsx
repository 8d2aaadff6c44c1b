import { useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import type { Version } from '@/domain/contract/review.ts';
import { frameToTimecode } from '@/domain/timecode.ts';
import { Modal } from '@/ui/modal.tsx';
import { CompareStage, type CompareMode } from './compare-stage.tsx';
import { frameSeconds, finerRate } from './compare-logic.ts';
import { frameAt, versionLabel } from './review-logic.ts';
import { useSyncedPlayback } from './use-synced-playback.ts';

/** Wide enough for two 16:9 pictures of ~590 px side by side on a 1440 px desktop. */
const COMPARE_WIDTH = 1260;

interface Props {
  /** The versions the caller may see and play (each with its media links). */
  versions: readonly Version[];
  initial: [number, number];
  onClose: () => void;
}

function VersionPick({ label, value, versions, onChange }: { label: string; value: number; versions: readonly Version[]; onChange: (n: number) => void }) {
  return (
    <label className="compare-pick">
      <span className="compare-pick-label">{label}</span>
      <select aria-label={`Version ${label}`} value={value} onChange={(event) => onChange(Number(event.target.value))}>
        {versions.map((version) => (
          <option key={version.number} value={version.number}>
            {versionLabel(version.number)}
            {version.current ? ' (current)' : ''} · {new Date(version.createdAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })}
          </option>
        ))}
      </select>
    </label>
  );
}

const timecodeOf = (seconds: number, version: Version) => frameToTimecode(frameAt(seconds, version.frameRate), version.frameRate);

/**
 * Two versions of the final video compared (no posters: a thumbnail is another frame than the
 * one both timecodes name): side by side or as a wipe, played as one (A leads,
 * B follows within a frame), each timecode at its version's own frame rate. Space plays and
 * pauses, ←/→ step one frame; the page's player is paused while this is open.
 */
export function VersionCompare({ versions, initial, onClose }: Props) {
  const [pair, setPair] = useState(initial);
  const [mode, setMode] = useState<CompareMode>('side');
  const [wipe, setWipe] = useState(0.5);
  const aVideo = useRef<HTMLVideoElement>(null);
  const bVideo = useRef<HTMLVideoElement>(null);
  const a = versions.find((version) => version.number === pair[0]) ?? versions[0]!;
  const b = versions.find((version) => version.number === pair[1]) ?? versions.at(-1)!;
  const rate = finerRate(a.frameRate, b.frameRate);
  const sync = useSyncedPlayback(aVideo, bVideo, rate, `${a.number}-${b.number}`);
  const labels = { a: `A · ${versionLabel(a.number)}`, b: `B · ${versionLabel(b.number)}` };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (target.tagName === 'SELECT' || target.tagName === 'INPUT') return;
    const action = event.key === ' ' ? sync.toggle : event.key === 'ArrowLeft' ? () => sync.step(-1) : event.key === 'ArrowRight' ? () => sync.step(1) : null;
    if (!action) return;
    event.preventDefault();
    // The page's review keys listen on the window: they must not drive the hidden player too.
    event.stopPropagation();
    action();
  };
  const pick = (side: 0 | 1) => (number: number) => {
    sync.pause();
    setPair((current) => (side === 0 ? [number, current[1]] : [current[0], number]));
  };

  // On the body: the review panel sits in the page's own stacking context, under the top bar.
  return createPortal(
    <Modal title="Compare versions" onClose={onClose} width={COMPARE_WIDTH}>
      <div className="version-compare" onKeyDown={onKeyDown} data-testid="version-compare">
        <div className="compare-toolbar">
          <div className="compare-picks">
            <VersionPick label="A" value={a.number} versions={versions} onChange={pick(0)} />
            <span className="muted">compared with</span>
            <VersionPick label="B" value={b.number} versions={versions} onChange={pick(1)} />
          </div>
          <div className="version-switcher compare-modes" role="group" aria-label="Compare mode">
            {(
              [
                ['side', 'Side by side'],
                ['wipe', 'Wipe'],
              ] as const
            ).map(([value, label]) => (
              <button key={value} type="button" className={mode === value ? 'active' : ''} aria-pressed={mode === value} onClick={() => setMode(value)}>
                {label}
              </button>
            ))}
          </div>
        </div>
        <CompareStage
          mode={mode}
          position={wipe}
          onPosition={setWipe}
          labels={labels}
          a={
            <video
              ref={aVideo}
              src={a.media!.preview}
              preload="auto"
              playsInline
              data-testid="compare-video-a"
              aria-label={`Version ${versionLabel(a.number)}`}
            />
          }
          b={
            <video
              ref={bVideo}
              src={b.media!.preview}
              preload="auto"
              playsInline
              muted
              data-testid="compare-video-b"
              aria-label={`Version ${versionLabel(b.number)}`}
            />
          }
        />
        <div className="compare-transport">
          <button type="button" className="btn btn-primary compare-play" onClick={sync.toggle} aria-label={sync.playing ? 'Pause both' : 'Play both'}>
            {sync.playing ? '❚❚ Pause' : '▶ Play'}
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => sync.step(-1)} aria-label="One frame back">
            ◂ 1f
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => sync.step(1)} aria-label="One frame forward">
            1f ▸
          </button>
          <input
            type="range"
            className="compare-scrub"
            aria-label="Playhead"
            min={0}
            max={sync.duration || 0}
            step={frameSeconds(rate)}
            value={Math.min(sync.time, sync.duration || 0)}
            onChange={(event) => sync.seek(Number(event.target.value))}
          />
          <dl className="compare-timecodes" data-testid="compare-timecodes">
            <div>
              <dt>A</dt>
              <dd>{timecodeOf(sync.time, a)}</dd>
            </div>
            <div>
              <dt>B</dt>
              <dd>{timecodeOf(sync.time, b)}</dd>
            </div>
          </dl>
        </div>
        <p className="compare-hint muted">
          Space plays or pauses both, ← → step one frame. In the wipe, drag across the picture or use the arrow keys on the handle.
        </p>
      </div>
    </Modal>,
    document.body,
  );
}
