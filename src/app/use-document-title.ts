import { useEffect } from 'react';
import { useAtomValue } from '@/lib/state.ts';
import { pageTitleAtom } from '@/shared/project/page-title.ts';
import { documentTitle, pageNameFor } from './page-titles.ts';

/**
 * Keeps `document.title` in step with the route (and, on a project page, with the name the page
 * put in the top bar, renames included). An admin signed in as a customer sees the customer's
 * titles: the impersonation strip already says whose session it is.
 */
export function useDocumentTitle(path: string): void {
  const projectTitle = useAtomValue(pageTitleAtom)?.title ?? null;
  const name = pageNameFor(path, projectTitle);
  useEffect(() => {
    // A path that only redirects keeps the title until the page it lands on names itself.
    if (name !== null) document.title = documentTitle(name);
  }, [name]);
}
