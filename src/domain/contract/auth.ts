import { enums, literal, number, object, string, type Infer } from 'superstruct';
import { defineOperation } from './define.ts';
import { FIELD_MESSAGES, LIMITS, emailRule, passwordRule, registerNameRule, registerPhoneRule } from '../validation.ts';
import { EMAIL_SCHEMA, ruleField, textSchema } from './fields.ts';
import { nullable, optional, union } from './schema-notes.ts';

const requiredPassword = (value: string) => (value ? undefined : FIELD_MESSAGES.passwordRequired);
/** passwordRule: at least 6 characters. */
const NEW_PASSWORD = textSchema(6);

export const LoginBodyStruct = object({
  email: ruleField('email', emailRule, EMAIL_SCHEMA),
  // Sign-in checks only presence: the length rule is for new passwords.
  password: ruleField('password', requiredPassword, textSchema(1)),
  /** Bot-check token; when present it must score above 0. */
  code: optional(string()),
});
export type LoginBody = Infer<typeof LoginBodyStruct>;

export const SessionStruct = object({ token: string(), organizationId: nullable(number()) });
export type Session = Infer<typeof SessionStruct>;

export const TokenStruct = object({ token: string() });

export const RegisterBodyStruct = object({
  email: ruleField('email', emailRule, EMAIL_SCHEMA),
  password: ruleField('password', passwordRule, NEW_PASSWORD),
  firstName: ruleField('firstName', registerNameRule, textSchema(1, LIMITS.registerName)),
  lastName: ruleField('lastName', registerNameRule, textSchema(1, LIMITS.registerName)),
  phone: ruleField('phone', registerPhoneRule, { type: 'string' }),
  role: optional(union([literal('Owner'), literal('OWNER')])),
  /** Bot-check token; when present it must score above 0. */
  code: optional(string()),
});
export type RegisterBody = Infer<typeof RegisterBodyStruct>;

export const RecoverBodyStruct = object({ email: ruleField('email', emailRule, EMAIL_SCHEMA) });

export const RecoverCompleteBodyStruct = object({
  email: ruleField('email', emailRule, EMAIL_SCHEMA),
  recoveryCode: ruleField('recoveryCode', (v) => (v ? undefined : FIELD_MESSAGES.required), textSchema(1)),
  newPassword: ruleField('newPassword', passwordRule, NEW_PASSWORD),
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

/** GET score's query: the bot-check token to score. */
export const ScoreQueryStruct = object({ token: string() });

export const getClientConfig = defineOperation({ method: 'GET', path: '/client-config', access: 'public', answer: ClientConfigStruct });
export const login = defineOperation({ method: 'POST', path: '/login', access: 'public', body: LoginBodyStruct, answer: SessionStruct });
/** A new expiry for the same session, never past its absolute end (30 days after sign-in). */
export const refreshToken = defineOperation({ method: 'PUT', path: '/me/refresh-token', access: 'signed-in', answer: TokenStruct });
/** Signed in as an owner without an organization yet (organizationId null). */
export const register = defineOperation({ method: 'POST', path: '/register', access: 'public', body: RegisterBodyStruct, answer: SessionStruct, status: 201 });
export const score = defineOperation({ method: 'GET', path: '/score', access: 'public', query: ScoreQueryStruct, answer: ScoreStruct });
/** 204 whether or not the e-mail has an account. */
export const recoverPassword = defineOperation({ method: 'PUT', path: '/password-recover', access: 'public', body: RecoverBodyStruct });
/** Completes a recovery or an invitation: both links lead to /change-password. */
export const completeRecovery = defineOperation({
  method: 'PUT',
  path: '/password-recover-complete',
  access: 'public',
  body: RecoverCompleteBodyStruct,
  answer: SessionStruct,
});
