/** Line icons of the upload UI (same drawing rules as src/ui/icons.tsx). */
const PATHS = {
  video: 'M3 6h13v12H3zM16 10l5-3v10l-5-3',
  image: 'M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15.5 9.5a1.5 1.5 0 1 0 0-.01',
  interview: 'M12 3a3 3 0 0 1 3 3v5a3 3 0 0 1-6 0V6a3 3 0 0 1 3-3zM6 11a6 6 0 0 0 12 0M12 17v4M8 21h8',
  lock: 'M6 11h12v10H6zM8.5 11V7.5a3.5 3.5 0 0 1 7 0V11',
  close: 'M6 6l12 12M18 6L6 18',
  play: 'M8 5l11 7-11 7z',
  pause: 'M8 5v14M16 5v14',
  resume: 'M4 12a8 8 0 1 0 2.3-5.6M4 4v4h4',
  offline: 'M2 8.5a15 15 0 0 1 4.5-2.8M10 5.2A15 15 0 0 1 22 8.5M5 12a10 10 0 0 1 3.5-2.1M15 10.1A10 10 0 0 1 19 12M8.5 15.5a5 5 0 0 1 7 0M12 19h.01M3 3l18 18',
  download: 'M12 4v12M7 11l5 5 5-5M4 20h16',
  folder: 'M3 6h6l2 2h10v11H3z',
  cloud: 'M7 18h10a4 4 0 0 0 .5-8A6 6 0 0 0 6 9.5 4.3 4.3 0 0 0 7 18zM12 11v6M9.5 13.5L12 11l2.5 2.5',
} as const;

export type UploadIconName = keyof typeof PATHS;

export function UploadIcon({ name, size = 20, className }: { name: UploadIconName; size?: number; className?: string }) {
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      <path d={PATHS[name]} />
    </svg>
  );
}
