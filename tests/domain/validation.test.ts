import { describe, expect, it } from 'vitest';
import {
  FIELD_MESSAGES,
  audienceRule,
  confirmEmailRule,
  confirmPasswordRule,
  emailRule,
  isOrganizationNameCharacter,
  linkRule,
  projectLinkRule,
  organizationNameRule,
  passwordRule,
  projectNameRule,
  registerNameRule,
  registerPhoneRule,
  settingsNameRule,
  settingsPhoneRule,
} from '../../src/domain/validation.ts';
import { optionalLinkRule } from '../../src/domain/organization-rules.ts';

describe('e-mail', () => {
  it.each([
    ['', FIELD_MESSAGES.emailRequired],
    ['   ', FIELD_MESSAGES.emailRequired],
    ['plain', FIELD_MESSAGES.emailInvalid],
    ['a@b', FIELD_MESSAGES.emailInvalid],
    ['two words@x.com', FIELD_MESSAGES.emailInvalid],
    [`${'a'.repeat(94)}@x.com`, FIELD_MESSAGES.emailTooLong], // 100 characters
    ['  ok@example.com ', undefined],
    [`${'a'.repeat(93)}@x.com`, undefined], // exactly 99
  ])('%j → %j', (value, message) => expect(emailRule(value)).toBe(message));

  it('says 100 in the too-long message though the limit is 99', () => {
    expect(FIELD_MESSAGES.emailTooLong).toContain('100');
  });
});

describe('passwords', () => {
  it.each([
    ['', FIELD_MESSAGES.passwordRequired],
    ['12345', FIELD_MESSAGES.passwordTooShort],
    ['123456', undefined],
  ])('%j → %j', (value, message) => expect(passwordRule(value)).toBe(message));

  it('requires an equal re-entered password', () => {
    expect(confirmPasswordRule('secret1', '')).toBe(FIELD_MESSAGES.confirmRequired);
    expect(confirmPasswordRule('secret1', 'secret2')).toBe(FIELD_MESSAGES.confirmMismatch);
    expect(confirmPasswordRule('secret1', 'secret1')).toBeUndefined();
  });

  it('keeps the change-password confirmation quiet while the password is empty', () => {
    expect(confirmPasswordRule('', 'anything', true)).toBeUndefined();
    expect(confirmPasswordRule('secret1', 'x', true)).toBe(FIELD_MESSAGES.confirmMismatch);
  });
});

describe('names and phones', () => {
  it('fails register names at 50 characters and settings names past 99', () => {
    expect(registerNameRule('x'.repeat(49))).toBeUndefined();
    expect(registerNameRule('x'.repeat(50))).toBe(FIELD_MESSAGES.registerNameTooLong);
    expect(settingsNameRule('x'.repeat(99))).toBeUndefined();
    expect(settingsNameRule('x'.repeat(100))).toBe(FIELD_MESSAGES.nameTooLong);
    expect(registerNameRule(' ')).toBe(FIELD_MESSAGES.nameRequired);
  });

  it('takes digits only, at most 13 on register and 14 in settings', () => {
    expect(registerPhoneRule('')).toBe(FIELD_MESSAGES.phoneRequired);
    expect(registerPhoneRule('+1555')).toBe(FIELD_MESSAGES.phoneDigits);
    expect(registerPhoneRule('1'.repeat(13))).toBeUndefined();
    expect(registerPhoneRule('1'.repeat(14))).toBe(FIELD_MESSAGES.phoneTooLong(13));
    expect(settingsPhoneRule('1'.repeat(14))).toBeUndefined();
    expect(settingsPhoneRule('1'.repeat(15))).toBe(FIELD_MESSAGES.phoneTooLong(14));
  });

  it('confirms the e-mail of the settings form', () => {
    expect(confirmEmailRule('a@b.co', '')).toBe(FIELD_MESSAGES.confirmEmailRequired);
    expect(confirmEmailRule('a@b.co', 'nope')).toBe(FIELD_MESSAGES.emailInvalid);
    expect(confirmEmailRule('a@b.co', 'c@b.co')).toBe(FIELD_MESSAGES.confirmEmailMismatch);
    expect(confirmEmailRule('a@b.co', 'A@B.co')).toBeUndefined();
  });
});

describe('organization name', () => {
  it.each([
    ['', FIELD_MESSAGES.organizationRequired],
    ['x'.repeat(100), FIELD_MESSAGES.organizationTooLong],
    ['Acme & Co', FIELD_MESSAGES.organizationCharacters],
    ['.Acme', FIELD_MESSAGES.organizationFirstCharacter],
    [' Acme', FIELD_MESSAGES.organizationFirstCharacter],
    ['Acme  Films', FIELD_MESSAGES.organizationDoubleSpace],
    ["O'Neil Films-2_*!.", undefined],
    ['Éclair Studio', undefined],
    ['9 Lives', undefined],
  ])('%j → %j', (value, message) => expect(organizationNameRule(value)).toBe(message));

  it('blocks disallowed keystrokes', () => {
    expect([..."aZ9 .'-_*!"].every(isOrganizationNameCharacter)).toBe(true);
    expect(['#', '&', '/', '@', '\t'].some(isOrganizationNameCharacter)).toBe(false);
  });
});

describe('project fields and links', () => {
  it('limits the project name to 43 and the audience to 50', () => {
    expect(projectNameRule('')).toBe(FIELD_MESSAGES.required);
    expect(projectNameRule('x'.repeat(43))).toBeUndefined();
    expect(projectNameRule('x'.repeat(44))).toBe(FIELD_MESSAGES.projectNameTooLong);
    expect(audienceRule('x'.repeat(51))).toBe(FIELD_MESSAGES.audienceTooLong);
  });

  it('accepts only http(s) links under 199 characters', () => {
    expect(linkRule('https://example.com/x')).toBeUndefined();
    expect(linkRule('ftp://example.com')).toBe(FIELD_MESSAGES.linkInvalid);
    expect(linkRule('not a url')).toBe(FIELD_MESSAGES.linkInvalid);
    expect(linkRule(`https://e.com/${'x'.repeat(184)}`)).toBeUndefined();
    expect(linkRule(`https://e.com/${'x'.repeat(185)}`)).toBe('The link must be at most 198 characters.');
  });

  // Issue 12: a link over the limit names the limit (A§5: 200 for feedback, 255 for asset links), never "Not a valid URL".
  it('names the limit of each kind of link and holds exactly that limit', () => {
    const link = (length: number) => `https://e.com/${'x'.repeat(length - 14)}`;
    expect(projectLinkRule('reviewLink')(link(200))).toBeUndefined();
    expect(projectLinkRule('reviewLink')(link(201))).toBe('The feedback link must be at most 200 characters.');
    for (const field of ['assetsLink', 'editorAssetsLink'] as const) {
      expect(projectLinkRule(field)(link(255))).toBeUndefined();
      expect(projectLinkRule(field)(link(256))).toBe('An asset link must be at most 255 characters.');
    }
    expect(optionalLinkRule(link(255))).toBeUndefined();
    expect(optionalLinkRule(link(256))).toBe(FIELD_MESSAGES.linkTooLong('asset'));
    expect(projectLinkRule('collaborationLink')(link(199))).toBe(FIELD_MESSAGES.linkTooLong('other'));
    expect(projectLinkRule('reviewLink')(`ftp://e.com/${'x'.repeat(300)}`)).toBe(FIELD_MESSAGES.linkTooLong('feedback'));
    expect(projectLinkRule('reviewLink')('ftp://e.com/x')).toBe(FIELD_MESSAGES.linkInvalid);
  });
});
