/**
 * The query key of a browser whose filter lives in the page URL (use-url-filter.tsx): its name and the URL's
 * parameters as they are sent. A plain module, so that a server page reading the first answer keys it alike.
 */
export const urlFilterKey = (name: string, qs: string) => [name, qs] as const;
