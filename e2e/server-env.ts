/**
 * The settings of every server the end-to-end suite starts (the shared one in
 * playwright.config.ts and the specs' own). Specs check what a person sees, not the server's
 * defences against overload: per-e-mail limits and load shedding are tested in tests/server,
 * and a busy CI machine must not turn a page into a 503. The demo's review videos (ffmpeg
 * work in the background) are off: specs check the seeded states, and those that need media
 * make their own.
 */
export const E2E_SERVER_ENV = {
  DEMO_PASSWORD: 'demo-password',
  DEMO_VIDEOS: 'off',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_EMAIL: '1000',
  RATE_LIMIT_PER_IP: '100000',
  MAX_EVENT_LOOP_DELAY_MS: '60000',
} as const;
