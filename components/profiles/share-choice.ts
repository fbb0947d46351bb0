/** The sharing form's choice of a person rather than one of the owner's groups (whose choices are their ids). */
export const PERSON = 'person';
