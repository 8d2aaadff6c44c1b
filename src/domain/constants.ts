/** Business constants of both specs (C§9, A§9), kept in one place. */

/** A window this wide or narrower is not a desktop: the app shows /not-mobile. */
export const MOBILE_MAX_WIDTH = 768;
/** Refresh the session token when this many days or fewer remain (rounded up). */
export const TOKEN_REFRESH_DAYS = 2;
/** How long a session token lives. */
export const TOKEN_LIFETIME_DAYS = 7;
export const RECOVER_SUBMIT_DELAY_MS = 500;
export const RECOVERY_CODE_LIFETIME_MINUTES = 60;
export const INVITE_CODE_LIFETIME_DAYS = 7;
export const USERS_LIST_LIMIT = 100;
export const MODAL_WIDTH = 709;
export const BYTES_PER_TB = 1_099_511_627_776;
export const DEFAULT_NOT_FOUND_COLOUR = '#93D35A';
export const EXPIRY_WARNING_DAYS = 91;
export const VIDEO_RETRY_MS = 5_000;
export const NO_MEMORY_MESSAGE_MS = 3_000;

export const FINAL_VIDEO_LENGTHS = ['0-60 seconds', '1-2 minutes', '2-5 minutes', '5+ minutes'] as const;
export type FinalVideoLength = (typeof FINAL_VIDEO_LENGTHS)[number];

/** Theme colours of C§9. */
export const THEME = {
  primary: '#464A4F',
  secondary: '#b0bec5',
  accent: '#8c9eff',
  error: '#b71c1c',
  success: '#87C232',
  danger: '#EA7824',
} as const;

/** Shown on /recover-password's footer. */
export const AUTHOR_NAME = 'Cutdesk Studio';
export const SUPPORT_EMAIL = 'support@cutdesk.test';
