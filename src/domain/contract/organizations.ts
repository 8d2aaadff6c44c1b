import { boolean, number, object, string, type Infer } from 'superstruct';
import { nullable } from './schema-notes.ts';
import { LIMITS, organizationNameRule } from '../validation.ts';
import { defineOperation } from './define.ts';
import { ruleField, textSchema } from './fields.ts';

export const CreateOrganizationBodyStruct = object({ name: ruleField('name', organizationNameRule, textSchema(1, LIMITS.organizationName)) });

export const IdResponseStruct = object({ id: number() });

/** Step 1 of registration: the new owner names the organization. */
export const createOrganization = defineOperation({
  method: 'POST',
  path: '/organizations',
  access: 'signed-in',
  body: CreateOrganizationBodyStruct,
  answer: IdResponseStruct,
  status: 201,
});

export const CreditsStruct = object({
  startDate: nullable(string()),
  endDate: nullable(string()),
  activeCredits: number(),
  usedCredits: number(),
  creditsPerInterval: number(),
  interval: number(),
  renewable: boolean(),
  renewDate: nullable(string()),
  status: string(),
});
export type Credits = Infer<typeof CreditsStruct>;

export const OrganizationStruct = object({
  id: number(),
  name: string(),
  credits: CreditsStruct,
  /** Quota in TB. */
  storage: number(),
  /** Bytes in use. */
  usedSpace: number(),
  status: object({ id: number() }),
});
export type Organization = Infer<typeof OrganizationStruct>;
