/** Every role of the product. Staff work in the back-office, customers in the organization portal. */
export const ROLES = ['SUPERADMIN', 'ADMIN', 'EDITOR', 'OWNER', 'USER'] as const;
export type RoleName = (typeof ROLES)[number];

export const STAFF_ROLES: readonly RoleName[] = ['SUPERADMIN', 'ADMIN', 'EDITOR'];
export const CUSTOMER_ROLES: readonly RoleName[] = ['OWNER', 'USER'];

export function isStaffRole(role: string | null | undefined): boolean {
  return STAFF_ROLES.includes(role as RoleName);
}

export function isCustomerRole(role: string | null | undefined): boolean {
  return CUSTOMER_ROLES.includes(role as RoleName);
}

/** Staff who may act on customers and projects (everything an EDITOR may not). */
export function isManagerRole(role: string | null | undefined): boolean {
  return role === 'SUPERADMIN' || role === 'ADMIN';
}
