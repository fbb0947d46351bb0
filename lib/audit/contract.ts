// The audit trail's rows, and what made each change, are part of the query API's answers, so they are declared with
// them (lib/query/contract.ts), below the audit domain that reads the trail; the sample_updates table and the portal
// name them from here.
export { type AuditRecord, UPDATE_TYPES, type UpdateType } from '../query/contract';
