import type { ProfileFormOptions } from '@/components/profiles/types';
import { ASSOCIATED_TYPES, SEQUENCING_CENTRES } from '@/lib/profiles/enums';
import { profileTypeOptions } from '@/lib/profiles/profiles';
import type { UserRecord } from '@/lib/users/users';

/** What the profile forms offer this user. */
export const profileFormOptions = (user: UserRecord): ProfileFormOptions => ({
  types: profileTypeOptions(user).map((t) => ({
    type: t.type,
    label: t.label,
    allowed: t.allowed,
    choosesAssociatedTypes: t.choosesAssociatedTypes,
    choosesSequencingCentres: t.choosesSequencingCentres,
  })),
  associatedTypes: ASSOCIATED_TYPES.filter((a) => a.selectable).map(({ name, label }) => ({ name, label })),
  sequencingCentres: SEQUENCING_CENTRES.map(({ name, label }) => ({ name, label })),
});
