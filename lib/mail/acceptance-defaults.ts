/**
 * The acceptance texts an instance starts with (associated_types.acceptance_text), by associated type; a type not
 * listed starts with none, so its acceptance email says only that the samples are accepted. The migration that made
 * the column holds a copy of these, which tests/acceptance-email.test.ts compares with them. The two links of BGE's
 * are stand-ins an administrator replaces with BGE's own.
 */

export const MTA_LINK_STAND_IN = 'https://example.org/set-the-MTA-link';
export const SHIPPING_LINK_STAND_IN = 'https://example.org/set-the-shipping-instructions-link';

const BGE = `Thank you: the samples of **{{profile_title}}** are accepted for {{associated_type}}.

What to do next:

1. Sign the material transfer agreement (MTA): [the BGE material transfer agreement](${MTA_LINK_STAND_IN}). The samples can be shipped once it is signed.
2. Ship the samples to the sequencing centre ({{centres}}), following [the BGE shipping instructions](${SHIPPING_LINK_STAND_IN}).
3. Put the list of the tubes in the parcel: {{tubes}} (specimens {{specimens}}).

Questions about the agreement or the shipment go to the sequencing centre's contacts: {{centre_contacts}}.`;

export const ACCEPTANCE_DEFAULTS: Readonly<Record<string, string>> = { BGE };
