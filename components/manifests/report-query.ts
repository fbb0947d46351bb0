/**
 * The report page's query keys, said once for its client parts (issue-groups.tsx) and for the server, which reads the
 * groups with the page (app/(portal)/manifests/reports/[reportId]/page.tsx) under the same key.
 */
export const reportGroupsKey = (reportId: string) => ['report-groups', reportId] as const;
