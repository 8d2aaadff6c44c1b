import { useEffect, useMemo } from 'react';
import { OrganizationStruct, type Organization } from '@/domain/contract/organizations.ts';
import type { Me } from '@/domain/contract/me.ts';
import { readStored, writeStored } from '@/lib/local-store.ts';
import { getOrganization } from '@/shared/organization/api/get-organization.ts';
import { useQuery } from '@/lib/query.ts';
import { meAtom } from '@/lib/session-state.ts';
import { useAtomValue } from '@/lib/state.ts';
import { queryKeys } from '@/shared/query/keys.ts';

/** Figures of the customer top bar (C§2): who, which organization, storage and credits. */
export interface TopBarInfo {
  userName: string;
  organizationName: string | null;
  profilePictureUrl: string | null;
  usedSpace: number;
  storageTb: number;
  usedCredits: number;
  activeCredits: number;
  creditsActive: boolean;
}

function topBarInfoOf(me: Me, organization: Organization): TopBarInfo {
  return {
    userName: me.name,
    organizationName: organization.name,
    profilePictureUrl: me.profilePictureUrl,
    usedSpace: organization.usedSpace,
    storageTb: organization.storage,
    usedCredits: organization.credits.usedCredits,
    activeCredits: organization.credits.activeCredits,
    creditsActive: organization.credits.status === 'ACTIVE',
  };
}

/**
 * The signed-in customer's organization as GET organizations/{id} last answered: one query (the
 * query layer owns server data) for the top bar, the send check and Admin Settings; a change
 * that invalidates the organization refreshes it, and an app opened offline gets the answer
 * kept for offline use (src/lib/offline-cache.ts).
 */
export function useCustomerOrganization(enabled = true) {
  const organizationId = useAtomValue(meAtom)?.organizationId ?? null;
  return useQuery({
    queryKey: queryKeys.customerOrganization(organizationId ?? 0),
    queryFn: () => getOrganization(organizationId!, OrganizationStruct),
    enabled: enabled && organizationId !== null,
  });
}

/**
 * The top bar's figures, from the organization query. C§3 keeps them in the browser too
 * (`topBarInfo`): the last ones show at once when the app starts, before the query answers,
 * and are forgotten at sign-out with the rest of the customer's data.
 */
export function useTopBarInfo(): TopBarInfo | null {
  const me = useAtomValue(meAtom);
  const organization = useCustomerOrganization().data;
  const info = useMemo(() => (me && organization && organization.id === me.organizationId ? topBarInfoOf(me, organization) : null), [me, organization]);
  useEffect(() => {
    if (info) writeStored('topBarInfo', info);
  }, [info]);
  return info ?? (me?.organizationId ? readStored<TopBarInfo>('topBarInfo') : null);
}
