import { PROFILE_TYPES, type ProfileType } from '@/db/schema';
import { type FieldError, Invalid } from '@/lib/errors';
import { PROFILE_TYPE_INFO, type ProfileTypeInfo, profileTypeInfo } from '@/lib/projects/enums';
import { findAssociatedType, findSequencingCentre, type ReferenceData } from '@/lib/reference/read';
import type { ProfileInput } from './contract';

/**
 * What a profile's body may say, checked as the reference checks it: its type, title and description, the associated
 * types and sequencing centres its type allows, and its ENA locus-tag prefixes. Every field's error is gathered, so
 * that one answer names them all.
 */

const TITLE_MAX = 255;
const DESCRIPTION_MAX = 10_000;

const or = (names: readonly string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : (names[0] ?? '');
const CREATABLE = PROFILE_TYPE_INFO.filter((t) => t.creatable).map((t) => t.type);

/** The stored type named by `raw` (any case); missing, unknown and legacy types are 400. */
export function parseProfileType(raw: string | undefined, { forCreate }: { forCreate: boolean }): ProfileType {
  const value = raw?.trim().toLowerCase() ?? '';
  if (!value) throw Invalid('Missing required field: Type type', [{ path: 'type', message: 'type is required' }]);
  const type = PROFILE_TYPES.find((t) => t === value);
  if (!type || (forCreate && !profileTypeInfo(type).creatable)) {
    const message = `Invalid value for 'type'. Must be one of: ${or(CREATABLE)}`;
    throw Invalid(message, [{ path: 'type', message }]);
  }
  return type;
}

interface Associations {
  associatedTypes: string[];
  sequencingCentres: string[];
}

const inOrder = (names: Iterable<string>, order: readonly { name: string }[]) => {
  const set = new Set(names);
  return order.filter((o) => set.has(o.name)).map((o) => o.name);
};

/** One name or several, trimmed, blanks dropped; undefined when the field was not sent (an update keeps it). */
const sent = (names: string | string[] | undefined) =>
  names === undefined
    ? undefined
    : [names]
        .flat()
        .map((s) => s.trim())
        .filter(Boolean);

/**
 * The associated types and sequencing centres a profile of this type ends up with. Fixed types take theirs whatever
 * is sent (sending the same value is accepted, as the reference's clients do); ERGA validates the user's picks and
 * adds the name of every picked centre that needs approval. Absent fields keep `current` (on update). A new pick must
 * be selectable (`lists`: the reference data); a retired one the profile already has stays.
 */
export function resolveAssociations(
  info: ProfileTypeInfo,
  input: ProfileInput,
  current: Associations | null,
  errors: FieldError[],
  lists: Pick<ReferenceData, 'associatedTypes' | 'sequencingCentres'>,
): Associations {
  const sentTypes = sent(input.associated_type);
  const sentCentres = sent(input.sequencing_centre);
  if (!info.choosesAssociatedTypes) {
    const fixed = new Set(info.fixedAssociatedTypes);
    const wrong = (sentTypes ?? []).filter((v) => !fixed.has(findAssociatedType(lists.associatedTypes, v)?.name ?? ''));
    if (wrong.length) {
      errors.push({
        path: 'associated_type',
        message: fixed.size
          ? `The associated type of ${info.type} profiles is ${[...fixed].join(', ')}; ${wrong.join(', ')} is not allowed`
          : `${info.type} profiles have no associated types`,
      });
    }
    if (sentCentres?.length) {
      errors.push({ path: 'sequencing_centre', message: `Sequencing centres apply to erga profiles only` });
    }
    return { associatedTypes: [...info.fixedAssociatedTypes], sequencingCentres: [] };
  }

  const centres = new Set<string>();
  for (const v of sentCentres ?? current?.sequencingCentres ?? []) {
    const c = findSequencingCentre(lists.sequencingCentres, v);
    if (c && (c.selectable || current?.sequencingCentres.includes(c.name))) centres.add(c.name);
    else errors.push({ path: 'sequencing_centre', message: `Invalid value for 'sequencing_centre': ${v}` });
  }
  const types = new Set<string>();
  const selectable = lists.associatedTypes.filter((a) => a.selectable).map((a) => a.name);
  for (const v of sentTypes ?? current?.associatedTypes ?? []) {
    const a = findAssociatedType(lists.associatedTypes, v);
    if (a && (a.selectable || current?.associatedTypes.includes(a.name))) types.add(a.name);
    else {
      errors.push({
        path: 'associated_type',
        message: `Invalid value for 'associated_type': ${v}. Must be one of: ${or(selectable)}`,
      });
    }
  }
  for (const c of lists.sequencingCentres) if (c.approvalRequired && centres.has(c.name)) types.add(c.name);
  if (!centres.size && !errors.some((e) => e.path === 'sequencing_centre')) {
    errors.push({ path: 'sequencing_centre', message: 'Missing required field: Sequencing Centre sequencing_centre' });
  }
  if (!types.size && !errors.some((e) => e.path === 'associated_type')) {
    errors.push({ path: 'associated_type', message: 'Missing required field: Associated Profile Type associated_type' });
  }
  return {
    associatedTypes: inOrder(types, lists.associatedTypes),
    sequencingCentres: inOrder(centres, lists.sequencingCentres),
  };
}

// ENA's locus-tag prefix: a letter, then letters or digits, 3 to 12 in all, upper case
const LOCUS_TAG = /^[A-Z][A-Z0-9]{2,11}$/;

/** The locus-tag prefixes sent (a comma list or an array, any case), checked; undefined when not sent. */
export function checkLocusTags(input: ProfileInput, errors: FieldError[]): string[] | undefined {
  const tags = sent(input.ena_locus_tags === undefined ? undefined : [input.ena_locus_tags].flat().flatMap((t) => t.split(',')));
  if (tags === undefined) return undefined;
  const upper = [...new Set(tags.map((t) => t.toUpperCase()))];
  for (const t of upper) {
    if (!LOCUS_TAG.test(t)) {
      errors.push({
        path: 'ena_locus_tags',
        message: `ENA Locus Tags : Invalid value '${t}'. A locus-tag prefix is 3 to 12 letters and digits, starting with a letter.`,
      });
    }
  }
  return upper;
}

export function checkText(input: ProfileInput, errors: FieldError[], { required }: { required: boolean }) {
  const title = input.title?.trim();
  if (title === undefined ? required : !title) {
    errors.push({ path: 'title', message: 'Missing required field: Title title' });
  } else if (title && title.length > TITLE_MAX) {
    errors.push({ path: 'title', message: `title must have at most ${TITLE_MAX} characters` });
  }
  if (input.description !== undefined && input.description.length > DESCRIPTION_MAX) {
    errors.push({ path: 'description', message: `description must have at most ${DESCRIPTION_MAX} characters` });
  }
  return { title, description: input.description?.trim() };
}

export function throwIfAny(errors: FieldError[]) {
  if (errors.length) throw Invalid(errors.map((e) => e.message).join('; '), errors);
}
