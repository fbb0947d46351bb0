import type { Db } from '@/db/client';
import { referenceData } from '@/lib/reference/read';
import type { UserRecord } from '@/lib/users/users';
import type { Profile, ProfileOptions, ProfileTypeOption } from './contract';
import { type ProfileView, profileTypeOptions } from './profiles';

/** The profile as the API and the portal show it. */
export const profileJson = (p: ProfileView): Profile => ({
  id: p.id,
  title: p.title,
  description: p.description,
  type: p.type,
  associated_type: p.associatedTypes,
  sequencing_centre: p.sequencingCentres,
  ena_locus_tags: p.enaLocusTags,
  date_created: p.createdAt.toISOString(),
  date_modified: p.updatedAt.toISOString(),
  owner: p.ownerUsername,
  role: p.role,
});

/** The types offered for new profiles, with whether this user may create each. */
export const profileTypesJson = (user: UserRecord): ProfileTypeOption[] =>
  profileTypeOptions(user).map((t) => ({
    type: t.type,
    label: t.label,
    tol: t.tol,
    allowed: t.allowed,
    associated_type: [...t.fixedAssociatedTypes],
    choose_associated_type: t.choosesAssociatedTypes,
    choose_sequencing_centre: t.choosesSequencingCentres,
  }));

/** Every associated type and centre, retired ones included: a profile that has one shows it; forms offer the selectable. */
export async function profileOptionsJson(db: Db): Promise<ProfileOptions> {
  const lists = await referenceData(db);
  return {
    associated_types: lists.associatedTypes.map((a) => ({
      name: a.name,
      label: a.label,
      approval_required: a.approvalRequired,
      selectable: a.selectable,
    })),
    sequencing_centres: lists.sequencingCentres.map((s) => ({
      name: s.name,
      label: s.label,
      approval_required: s.approvalRequired,
      selectable: s.selectable,
    })),
  };
}
