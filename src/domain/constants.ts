/** Business constants of both specs (C§9, A§9), kept in one place. */

/** Refresh the session token when this many days or fewer remain (rounded up). */
export const TOKEN_REFRESH_DAYS = 2;
/** How long a session token lives. */
export const TOKEN_LIFETIME_DAYS = 7;
export const RECOVERY_CODE_LIFETIME_MINUTES = 60;
export const INVITE_CODE_LIFETIME_DAYS = 7;
export const USERS_LIST_LIMIT = 100;
export const BYTES_PER_TB = 1_099_511_627_776;
export const EXPIRY_WARNING_DAYS = 91;

export const FINAL_VIDEO_LENGTHS = ['0-60 seconds', '1-2 minutes', '2-5 minutes', '5+ minutes'] as const;
