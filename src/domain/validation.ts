/**
 * Validation rules of C§5 and A§5 with the specs' messages. Each rule returns an error
 * message or undefined. Forms show the message under the input; the server answers 400 with
 * the same message in `fields`.
 */
export type Rule = (value: string) => string | undefined;

export const FIELD_MESSAGES = {
  emailRequired: 'E-mail is required',
  emailInvalid: 'This email address seems incorrect, please provide a valid email address.',
  emailTooLong: 'E-mail must be less than 100 characters.',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Please make sure your password is at least 6 characters long.',
  confirmRequired: 'Please re-enter your password',
  confirmMismatch: "Password and Re-Entered password doesn't match",
  nameRequired: 'First / Last name are required',
  registerNameTooLong: 'First / Last name must be less than 50 characters.',
  nameTooLong: 'First / Last name must be less than 100 characters.',
  phoneRequired: 'Phone is required',
  phoneDigits: 'Phone must contain digits only.',
  phoneTooLong: (max: number) => `Phone must be at most ${max} digits.`,
  confirmEmailRequired: 'Please confirm the e-mail',
  confirmEmailMismatch: 'E-mails do not match',
  organizationRequired: 'Organization name is required',
  organizationTooLong: 'Organization name must be less than 100 characters.',
  organizationCharacters: "Only letters, digits, spaces and . ' - _ * ! are allowed.",
  organizationFirstCharacter: 'The name must start with a letter or a digit.',
  organizationDoubleSpace: 'The name cannot contain two spaces in a row.',
  required: 'This field is required',
  projectNameTooLong: 'The name must be at most 43 characters.',
  audienceTooLong: 'The audience must be at most 50 characters.',
  lengthInvalid: 'Choose one of the listed lengths.',
  linkInvalid: 'Not a valid URL',
  linkTooLong: (kind: LinkKind) => `${LINK_NOUN[kind]} must be at most ${LINK_LIMITS[kind]} characters.`,
  trackingTooLong: 'The tracking id must be at most 100 characters.',
  textNul: 'Text cannot contain the NUL character (\\u0000).',
  textIllFormed: 'Text cannot contain a lone UTF-16 surrogate (an unpaired \\uD800–\\uDFFF).',
  jsonTooDeep: 'The request body is nested too deeply.',
} as const;

/**
 * A§5: links are http(s) URLs; the spec's messages name 200 characters for the feedback link and
 * 255 for asset links (the project's and the organization's assets link, the editor's files and
 * drive links), and "under 199" for the rest. Each kind is refused past the limit its message
 * names, so the message never states a limit the rule does not hold.
 */
export type LinkKind = 'feedback' | 'asset' | 'other';
export const LINK_LIMITS: Record<LinkKind, number> = { feedback: 200, asset: 255, other: 198 };
const LINK_NOUN: Record<LinkKind, string> = { feedback: 'The feedback link', asset: 'An asset link', other: 'The link' };

export const LIMITS = {
  email: 99,
  name: 99,
  registerName: 49,
  registerPhone: 13,
  settingsPhone: 14,
  organizationName: 99,
  projectName: 43,
  audience: 50,
  trackingId: 100,
} as const;

// Deliberately simple: one @, no spaces, a dot in the domain. Real delivery is the proof.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailRule: Rule = (value) => {
  const v = value.trim();
  if (!v) return FIELD_MESSAGES.emailRequired;
  if (v.length > LIMITS.email) return FIELD_MESSAGES.emailTooLong;
  if (!EMAIL_PATTERN.test(v)) return FIELD_MESSAGES.emailInvalid;
  return undefined;
};

export const passwordRule: Rule = (value) => {
  if (!value) return FIELD_MESSAGES.passwordRequired;
  if (value.length < 6) return FIELD_MESSAGES.passwordTooShort;
  return undefined;
};

/** Re-entered password. `allowEmptyWhilePasswordEmpty` is the change-password variant. */
export function confirmPasswordRule(password: string, confirm: string, allowEmptyWhilePasswordEmpty = false): string | undefined {
  if (allowEmptyWhilePasswordEmpty && !password) return undefined;
  if (!confirm) return FIELD_MESSAGES.confirmRequired;
  if (confirm !== password) return FIELD_MESSAGES.confirmMismatch;
  return undefined;
}

function personNameRule(max: number, tooLong: string): Rule {
  return (value) => {
    if (!value.trim()) return FIELD_MESSAGES.nameRequired;
    if (value.length > max) return tooLong;
    return undefined;
  };
}

/** Register form: first and last name fail at 50 characters or more. */
export const registerNameRule = personNameRule(LIMITS.registerName, FIELD_MESSAGES.registerNameTooLong);
/** User settings form: at most 99 characters. */
export const settingsNameRule = personNameRule(LIMITS.name, FIELD_MESSAGES.nameTooLong);

function phoneRule(max: number): Rule {
  return (value) => {
    if (!value) return FIELD_MESSAGES.phoneRequired;
    if (!/^\d+$/.test(value)) return FIELD_MESSAGES.phoneDigits;
    if (value.length > max) return FIELD_MESSAGES.phoneTooLong(max);
    return undefined;
  };
}

export const registerPhoneRule = phoneRule(LIMITS.registerPhone);
export const settingsPhoneRule = phoneRule(LIMITS.settingsPhone);

export function confirmEmailRule(email: string, confirm: string): string | undefined {
  if (!confirm.trim()) return FIELD_MESSAGES.confirmEmailRequired;
  const invalid = emailRule(confirm);
  if (invalid) return invalid;
  if (confirm.trim().toLowerCase() !== email.trim().toLowerCase()) return FIELD_MESSAGES.confirmEmailMismatch;
  return undefined;
}

const ORGANIZATION_CHARACTER = /^[\p{L}\p{N} .'\-_*!]$/u;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** True when `character` may be typed into an organization name (keystrokes are blocked otherwise). */
export function isOrganizationNameCharacter(character: string): boolean {
  return ORGANIZATION_CHARACTER.test(character);
}

export const organizationNameRule: Rule = (value) => {
  if (!value.trim()) return FIELD_MESSAGES.organizationRequired;
  if (value.length > LIMITS.organizationName) return FIELD_MESSAGES.organizationTooLong;
  if (![...value].every(isOrganizationNameCharacter)) return FIELD_MESSAGES.organizationCharacters;
  if (!LETTER_OR_DIGIT.test([...value][0] ?? '')) return FIELD_MESSAGES.organizationFirstCharacter;
  if (value.includes('  ')) return FIELD_MESSAGES.organizationDoubleSpace;
  return undefined;
};

export function requiredRule(message: string = FIELD_MESSAGES.required): Rule {
  return (value) => (value.trim() ? undefined : message);
}

export function maxLengthRule(max: number, message: string): Rule {
  return (value) => (value.length > max ? message : undefined);
}

/** Runs rules in order and returns the first message. */
export function firstError(value: string, ...rules: Rule[]): string | undefined {
  for (const rule of rules) {
    const message = rule(value);
    if (message) return message;
  }
  return undefined;
}

export const projectNameRule: Rule = (value) => firstError(value, requiredRule(), maxLengthRule(LIMITS.projectName, FIELD_MESSAGES.projectNameTooLong));
export const audienceRule: Rule = (value) => firstError(value, requiredRule(), maxLengthRule(LIMITS.audience, FIELD_MESSAGES.audienceTooLong));

/**
 * Link fields: an http(s) URL within its kind's limit (LINK_LIMITS), the limit named in the
 * message. Empty is handled by the caller (A§5 allows clearing).
 */
export function linkRuleFor(kind: LinkKind): Rule {
  return (value) => {
    if (!value.trim()) return FIELD_MESSAGES.linkInvalid;
    if (value.length > LINK_LIMITS[kind]) return FIELD_MESSAGES.linkTooLong(kind);
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : FIELD_MESSAGES.linkInvalid;
    } catch {
      return FIELD_MESSAGES.linkInvalid;
    }
  };
}

/** A link of no named kind (the collaboration link): under 199 characters. */
export const linkRule: Rule = linkRuleFor('other');

/** The kind of each of a project's four link fields (A§2, A§5). */
export const PROJECT_LINK_KIND = {
  assetsLink: 'asset',
  reviewLink: 'feedback',
  collaborationLink: 'other',
  editorAssetsLink: 'asset',
} as const satisfies Record<string, LinkKind>;

/** The rule of one of a project's link fields. */
export function projectLinkRule(field: keyof typeof PROJECT_LINK_KIND): Rule {
  return linkRuleFor(PROJECT_LINK_KIND[field]);
}

/** Keeps only the fields that have a message; an empty object means the form is valid. */
export function collectErrors<K extends string>(errors: Record<K, string | undefined>): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of Object.keys(errors) as K[]) {
    if (errors[key]) out[key] = errors[key];
  }
  return out;
}

/**
 * Every text the product stores: PostgreSQL refuses the NUL character in text, so it is refused
 * here, as bad input, before it can reach the database (where it would be a server error).
 */
export const storableTextRule: Rule = (value) =>
  value.includes('\u0000') ? FIELD_MESSAGES.textNul : value.isWellFormed() ? undefined : FIELD_MESSAGES.textIllFormed;

/** Deepest nesting of arrays and objects a request body may have; real bodies use 3 or 4. */
export const MAX_JSON_DEPTH = 32;

/** The UTF-16 unit of the `\\uXXXX` escape at `at`, or null when it is not one. */
function escapedUnit(text: string, at: number): number | null {
  const hex = text.slice(at + 2, at + 6);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? parseInt(hex, 16) : null;
}

/**
 * Checks JSON text before it is parsed: nesting deeper than `maxDepth` (a body nested thousands
 * of levels deep overflows the stack of whatever walks it) and the NUL character in any string
 * (escaped as \u0000, or raw), and a lone UTF-16 surrogate (PostgreSQL refuses both). One pass, no recursion, so the check itself cannot overflow.
 * Returns the message to answer with, or undefined. Malformed JSON is left to the parser.
 */
export function jsonTextProblem(text: string, maxDepth = MAX_JSON_DEPTH): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return FIELD_MESSAGES.textNul;
    if (inString) {
      if (code === 0x5c /* \ */) {
        if (text.startsWith('u0000', i + 1)) return FIELD_MESSAGES.textNul;
        const unit = text[i + 1] === 'u' ? escapedUnit(text, i) : null;
        if (unit !== null && unit >= 0xd800 && unit <= 0xdfff) {
          // PostgreSQL (text, jsonb) refuses a lone surrogate: a high one must be followed by a low one.
          const low = unit <= 0xdbff && text[i + 6] === '\\' && text[i + 7] === 'u' ? escapedUnit(text, i + 6) : null;
          if (low === null || low < 0xdc00 || low > 0xdfff) return FIELD_MESSAGES.textIllFormed;
          i += 11;
        } else i += unit === null ? 1 : 5; // the escaped character, whatever it is, cannot end the string
      } else if (code >= 0xd800 && code <= 0xdfff) {
        const next = text.charCodeAt(i + 1);
        if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return FIELD_MESSAGES.textIllFormed;
        i += 1;
      } else if (code === 0x22 /* " */) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
      depth += 1;
      if (depth > maxDepth) return FIELD_MESSAGES.jsonTooDeep;
    } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) depth -= 1;
  }
  return undefined;
}
