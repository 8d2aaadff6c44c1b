import { enums, literal, nullable, number, object, optional, string, union, type Infer } from 'superstruct';
import { FIELD_MESSAGES, emailRule, passwordRule, registerNameRule, registerPhoneRule } from '../validation.ts';
import { ruleField } from './fields.ts';

const requiredPassword = (value: string) => (value ? undefined : FIELD_MESSAGES.passwordRequired);

export const LoginBodyStruct = object({
  email: ruleField('email', emailRule),
  // Sign-in checks only presence: the length rule is for new passwords.
  password: ruleField('password', requiredPassword),
  /** Bot-check token; when present it must score above 0. */
  code: optional(string()),
});
export type LoginBody = Infer<typeof LoginBodyStruct>;

export const SessionStruct = object({ token: string(), organizationId: nullable(number()) });
export type Session = Infer<typeof SessionStruct>;

export const TokenStruct = object({ token: string() });

export const RegisterBodyStruct = object({
  email: ruleField('email', emailRule),
  password: ruleField('password', passwordRule),
  firstName: ruleField('firstName', registerNameRule),
  lastName: ruleField('lastName', registerNameRule),
  phone: ruleField('phone', registerPhoneRule),
  role: optional(union([literal('Owner'), literal('OWNER')])),
  /** Bot-check token; when present it must score above 0. */
  code: optional(string()),
});
export type RegisterBody = Infer<typeof RegisterBodyStruct>;

export const RecoverBodyStruct = object({ email: ruleField('email', emailRule) });

export const RecoverCompleteBodyStruct = object({
  email: ruleField('email', emailRule),
  recoveryCode: ruleField('recoveryCode', (v) => (v ? undefined : FIELD_MESSAGES.required)),
  newPassword: ruleField('newPassword', passwordRule),
});
export type RecoverCompleteBody = Infer<typeof RecoverCompleteBodyStruct>;

export const ScoreStruct = object({ score: number() });

/**
 * `GET client-config` (no token): what the web app needs before anyone signs in. `recaptchaSiteKey`
 * is set when the server verifies bot-check tokens with reCAPTCHA v3; null with the embedded scorer.
 */
export const ClientConfigStruct = object({
  recaptchaSiteKey: nullable(string()),
  /** The card form: the embedded test gateway's own (POST payment-methods), or Stripe.js Elements with this publishable key. */
  payments: object({ provider: enums(['embedded', 'stripe']), publishableKey: nullable(string()) }),
});
export type ClientConfig = Infer<typeof ClientConfigStruct>;
