import { Avatar } from './brand.tsx';

/** A person in a table row: picture or initials, name, a "You" tag and an optional role. */
export function PersonCell({ name, pictureUrl, isYou, role }: { name: string; pictureUrl: string | null; isYou?: boolean; role?: string | null }) {
  return (
    <span className="person">
      <Avatar name={name} url={pictureUrl} size={32} />
      <span>
        <span className="person-name">{name}</span>
        {isYou && <span className="you-tag">You</span>}
        {role && <span className="person-role">{role}</span>}
      </span>
    </span>
  );
}
