/** Words the service's emails share. */

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** svc_ids one to a line, the first fifty, with what `detail` says of each. */
export const listed = (ids: string[], detail?: (id: string) => string) =>
  ids
    .slice(0, 50)
    .map((id) => `  ${id}${detail ? `  ${detail(id)}` : ''}`)
    .concat(ids.length > 50 ? [`  … and ${ids.length - 50} more`] : [])
    .join('\n');
