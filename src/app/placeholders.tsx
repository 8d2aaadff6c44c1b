import { PlaceholderPage } from '@/ui/placeholder-page.tsx';

/** Pages whose issues have not landed: each says what will be there. */
export const PLACEHOLDERS = {
} as const;

export function Placeholder({ page }: { page: keyof typeof PLACEHOLDERS }) {
  const { body, ...props } = PLACEHOLDERS[page];
  return <PlaceholderPage {...props}>{body}</PlaceholderPage>;
}
