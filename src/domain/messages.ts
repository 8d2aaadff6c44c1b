/** The error catalogue of C§8 and A§8, word for word where the specs quote a message. */
export const MESSAGES = {
  loginFailed: 'Email or password are incorrect. If you encounter technical issues, contact us here',
  generic: 'An error occurred, please try again. If the error still occurs, please contact support.',
  emailAlreadyRegistered: 'There is already an account using this email',
  organizationExists: 'An organization with this name already exists.',
  userEmailUsed: 'There is already an user with this email. Please try another email or contact support.',
  recoveryCodeInvalid: 'The recovery code is not valid or has expired.',
  waitForUploads: 'Please wait while the assets finish uploading.',
  noMoreMemory: 'There is no more memory.',
  botCheckFailed: 'We could not verify that you are a person. Please reload the page and try again.',
  tooManyRequests: 'Too many attempts. Please wait a few minutes and try again.',
  unauthorized: 'Your session has ended. Please sign in again.',
  forbidden: 'You do not have permission to do this.',
  notFound: 'Not found.',
  invalidInput: 'Some fields are not valid.',
  alreadyInOrganization: 'Your account already belongs to an organization.',
} as const;

/** `data.code` of a recovery-completion failure (C§8). */
export const RECOVERY_CODE_ERROR = 100;

/** Send to editing with no active credit left (C§4 "consumes one credit"). */
export const CREDIT_MESSAGES = {
  noCredits: 'Your organization has no active credits left.',
  userContactOwner: 'Your organization has no credits left. Please contact your organization owner to get more.',
  briefIncomplete: 'Complete every field of the brief before sending the project to editing.',
  noAssetsWarning: 'You are submitting a project without any assets.',
  incompleteClips: 'Some clips did not finish uploading. Upload them again or delete them before sending the project to editing.',
} as const;
