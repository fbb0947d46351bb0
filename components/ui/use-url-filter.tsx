'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import type { z } from 'zod';
import { issuesByField } from '@/lib/browse/url-check';
import { ApiError } from '@/lib/client/api';
import { formValues, paramsObject, withParams } from '@/lib/client/search';
import { fetchedOnce, useFetchedOnFocus } from './fetched-once';
import { useUrlCheck } from './url-check';
import { urlFilterKey } from './url-filter-key';

/** The attributes of a form control of one parameter: its name, and its error wired for screen readers. */
interface ControlAttributes {
  name: string;
  id?: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** What a filter form's control of one parameter needs: its attributes, its value in the URL and its error. */
export interface FilterControl {
  props: ControlAttributes;
  value: string | undefined;
  problem: ReactNode;
}

/**
 * A browser whose filter lives in the page URL: the URL's parameters are checked with the same zod schema as the
 * API endpoint (by the page's server, UrlChecked), the page of results is fetched from that endpoint, and the filter
 * form writes back to the URL once the schema, fetched when the person first enters a field, accepts it. Errors from
 * the URL, the form and the server's problem body are shown next to their field.
 */
export function useUrlFilter<P extends string, T, S extends z.ZodType>(opts: {
  /**
   * the page of results for the page URL's query, sent as it is (the schema has accepted it):
   * `(search) => api.GET('/api/samples/browse', { querySerializer: () => search })`
   */
  fetch: (search: string) => Promise<T>;
  queryKey: string;
  params: readonly P[];
  /** the parameters the filter form sets (the others come from table headers and the pager) */
  form: readonly P[];
  /** the endpoint's schema, imported when first needed: `() => import('@/lib/browse/contract').then((c) => c.…Schema)` */
  rule: () => Promise<S>;
  idPrefix?: string;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const qs = search.toString();
  const input = paramsObject(search, opts.params);
  const parsed = useUrlCheck<z.output<S>>();
  const [formErrors, setFormErrors] = useState<Record<string, string>>({});
  const rule = useMemo(() => fetchedOnce(opts.rule), [opts.rule]);
  useFetchedOnFocus(rule);

  const q = useQuery({
    queryKey: urlFilterKey(opts.queryKey, qs),
    queryFn: () => opts.fetch(qs),
    enabled: parsed.success,
    placeholderData: keepPreviousData,
  });

  const urlErrors = parsed.success ? {} : parsed.errors;
  const serverError = q.error instanceof ApiError ? q.error : null;
  const errorFor = (p: string): string | undefined => formErrors[p] ?? urlErrors[p] ?? serverError?.forField(p);
  const href = (changes: Record<string, string | undefined>) => withParams(pathname, search, changes);
  const fieldProps = (name: string): ControlAttributes => ({
    name,
    ...(opts.idPrefix && { id: `${opts.idPrefix}-${name}` }),
    'aria-invalid': errorFor(name) ? true : undefined,
    'aria-describedby': errorFor(name) ? `${name}-error` : undefined,
  });
  const problem = (name: string) =>
    errorFor(name) ? (
      <span id={`${name}-error`} className="field-error">
        {errorFor(name)}
      </span>
    ) : null;

  const control = (name: P): FilterControl => ({ props: fieldProps(name), value: input[name], problem: problem(name) });

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const values = formValues(e.currentTarget, opts.form);
    // without the schema (the connection dropped) the address is changed as typed, and the page's server says what is wrong in it
    const check = await rule().then(
      (schema) => schema.safeParse(values),
      () => null,
    );
    if (check && !check.success) {
      setFormErrors(issuesByField(check.error));
      return;
    }
    setFormErrors({});
    // every form field is set or cleared; a new filter starts again at its first page
    router.push(href({ ...Object.fromEntries(opts.form.map((k) => [k, values[k]])), offset: undefined }));
  }

  const exportQs = new URLSearchParams(search);
  exportQs.delete('limit');
  exportQs.delete('offset');
  exportQs.set('return_type', 'csv');

  return { q, qs, input, parsed, pathname, search, errorFor, href, fieldProps, problem, control, onSubmit, exportQs };
}
