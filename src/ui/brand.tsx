/** The clapboard mark; `colour` paints its clapper (the 404 page recolours it). */
export function Clapboard({ colour = '#87C232', size = 48 }: { colour?: string; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden data-testid="clapboard" data-colour={colour}>
      <path d="M10 26h44v26a4 4 0 0 1-4 4H14a4 4 0 0 1-4-4z" fill="currentColor" opacity="0.95" />
      <path d="M9 18.2 51.3 9l1.9 8.5L10.9 26.7z" fill={colour} />
      <path d="m19 16.3 7 8.5M30 13.9l7 8.5M41 11.5l7 8.5" stroke="#2f3237" strokeWidth="3" />
      <path d="m27 33 13 8-13 8z" fill={colour} />
    </svg>
  );
}

export function Logo({ inverse = false }: { inverse?: boolean }) {
  return (
    <span className={`logo ${inverse ? 'logo-inverse' : ''}`}>
      <Clapboard size={30} />
      <span>Cutdesk</span>
    </span>
  );
}

export function Avatar({ name, url, size = 36 }: { name: string; url: string | null; size?: number }) {
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
  return url ? (
    <img className="avatar" src={url} alt={name} width={size} height={size} />
  ) : (
    <span className="avatar avatar-placeholder" style={{ width: size, height: size }} aria-label={`${name} (no picture)`}>
      {initials || '?'}
    </span>
  );
}
