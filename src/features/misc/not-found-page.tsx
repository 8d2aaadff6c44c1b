import { useState } from 'react';
import { DEFAULT_NOT_FOUND_COLOUR } from '@/ui/constants.ts';
import { Clapboard } from '@/ui/brand.tsx';

/** Hue of #93D35A, so the slider starts at the default colour. */
const DEFAULT_HUE = 90;

/** 404: a colour slider recolours the clapboard; "go back" goes one history step back. */
export function NotFoundPage() {
  const [hue, setHue] = useState(DEFAULT_HUE);
  const colour = hue === DEFAULT_HUE ? DEFAULT_NOT_FOUND_COLOUR : `hsl(${hue} 58% 59%)`;
  return (
    <div className="notice-page">
      <div className="notice fade-in">
        <div className="clapboard-wrap">
          <Clapboard colour={colour} size={168} />
        </div>
        <h1>Cut! This scene doesn't exist.</h1>
        <p>The page you are looking for was moved, removed or never shot.</p>
        <label className="colour-slider">
          <span className="swatch" style={{ background: colour }} />
          Clapboard colour
          <input type="range" min={0} max={359} value={hue} aria-label="Clapboard colour" onChange={(e) => setHue(Number(e.target.value))} />
        </label>
        <a
          href="#back"
          className="btn btn-primary"
          onClick={(e) => {
            e.preventDefault();
            history.back();
          }}
        >
          ← Go back
        </a>
      </div>
    </div>
  );
}
