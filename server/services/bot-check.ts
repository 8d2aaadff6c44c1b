import { HttpError } from '../http-error.ts';

/** Scores a bot-check token from 0 (a bot) to 1 (a person). */
export interface BotCheck {
  score(token: string): Promise<number>;
}

/** Embedded scorer: 0.9 for any non-empty token, 0 for the token "bot" (and for none). */
export const localBotCheck: BotCheck = {
  async score(token) {
    return token && token !== 'bot' ? 0.9 : 0;
  },
};

// Said when Google's verification cannot be reached: the client may retry; it is not a 500.
const UNAVAILABLE = 'The bot check is unavailable right now. Please try again in a minute.';
const VERIFY_TIMEOUT_MS = 5_000;

/** reCAPTCHA v3 in production. */
export function recaptchaBotCheck(secret: string, endpoint = 'https://www.google.com/recaptcha/api/siteverify'): BotCheck {
  return {
    async score(token) {
      // A token longer than any real one is not worth a round trip.
      if (token.length > 4096) return 0;
      let result: { success?: boolean; score?: number };
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          body: new URLSearchParams({ secret, response: token }),
          signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
        });
        if (!response.ok) throw new Error(`siteverify answered ${response.status}`);
        result = (await response.json()) as { success?: boolean; score?: number };
      } catch {
        throw new HttpError(503, UNAVAILABLE);
      }
      return result.success && typeof result.score === 'number' ? result.score : 0;
    },
  };
}
