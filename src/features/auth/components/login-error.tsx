import { MESSAGES } from '@/domain/messages.ts';
import { pathTo } from '@/domain/pages.ts';

/** The login failure of C§8 ends with a contact link. */
export function LoginError({ message }: { message: string }) {
  if (message !== MESSAGES.loginFailed)
    return (
      <div className="form-error" role="alert">
        {message}
      </div>
    );
  // The message ends with "contact us here": "here" is the link (one link, no second "contact us").
  const linkWord = 'here';
  const text = message.endsWith(linkWord) ? message.slice(0, -linkWord.length) : `${message} `;
  return (
    <div className="form-error" role="alert">
      {text}
      <a href={pathTo('help')} target="_blank" rel="noreferrer">
        {linkWord}
      </a>
    </div>
  );
}
