import { enums, number, object, string, type Infer } from 'superstruct';
import { nullable } from './schema-notes.ts';
import { ROLES } from '../roles.ts';
import { defineOperation } from './define.ts';

export const MeStruct = object({
  id: number(),
  email: string(),
  role: object({ name: enums(ROLES) }),
  firstName: string(),
  lastName: string(),
  name: string(),
  organizationId: nullable(number()),
  organizationName: nullable(string()),
  profilePictureUrl: nullable(string()),
  /** Set when an admin is signed in as this organization. */
  impersonatedBy: nullable(number()),
});
export type Me = Infer<typeof MeStruct>;

export const getMe = defineOperation({ method: 'GET', path: '/me', access: 'signed-in', answer: MeStruct });
