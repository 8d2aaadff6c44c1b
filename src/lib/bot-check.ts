import { ScoreStruct } from '@/domain/contract/auth.ts';
import { api } from './api-client.ts';

/**
 * The bot-check token the app sends. With reCAPTCHA configured this would come from
 * grecaptcha.execute; the embedded scorer accepts the app's own token.
 */
export const BOT_CHECK_TOKEN = 'cutdesk-web';

/** C§2: a score must be requested and be greater than 0 before signing in or registering. */
export async function passesBotCheck(): Promise<boolean> {
  const { score } = await api('GET', '/score', { query: { token: BOT_CHECK_TOKEN }, struct: ScoreStruct });
  return score > 0;
}
