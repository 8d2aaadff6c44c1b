import { MESSAGES } from '@/domain/messages.ts';

/** The login failure of C§8 ends with a contact link. */
export function LoginError({ message }: { message: string }) {
  if (message !== MESSAGES.loginFailed) return <div className="form-error" role="alert">{message}</div>;
  return (
    <div className="form-error" role="alert">
      {message}{' '}
      <a href="/help" target="_blank" rel="noreferrer">
        contact us
      </a>
    </div>
  );
}
