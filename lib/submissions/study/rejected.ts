/** A repository refused the study for good: the submission ends rejected with this message, no retry. */
export class Rejected extends Error {}
