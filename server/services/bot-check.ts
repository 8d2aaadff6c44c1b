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

/** reCAPTCHA v3 in production. */
export function recaptchaBotCheck(secret: string): BotCheck {
  return {
    async score(token) {
      const response = await fetch('https://www.google.com/recaptcha/api/siteverify', {
        method: 'POST',
        body: new URLSearchParams({ secret, response: token }),
      });
      const result = (await response.json()) as { success?: boolean; score?: number };
      return result.success ? (result.score ?? 0) : 0;
    },
  };
}
