/** Constants of the screens (C§9, A§9): sizes, delays and texts only the web app uses. */

/** A window this wide or narrower is not a desktop: the app shows /not-mobile. */
export const MOBILE_MAX_WIDTH = 768;
export const MODAL_WIDTH = 709;
export const RECOVER_SUBMIT_DELAY_MS = 500;
export const DEFAULT_NOT_FOUND_COLOUR = '#93D35A';
/** C§4 / A§4: availability is checked again every 5 s while the video is being processed. */
export const VIDEO_RETRY_MS = 5_000;
export const NO_MEMORY_MESSAGE_MS = 3_000;

/** Shown on /recover-password's footer. */
export const AUTHOR_NAME = 'Cutdesk Studio';
export const SUPPORT_EMAIL = 'support@cutdesk.test';
