import { useMemo } from 'react';
import { type DefaultValues, type FieldValues, type Resolver, type UseFormReturn, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { fetchedOnce, useFetchedOnFocus } from './fetched-once';

/**
 * The portal's one way to make a form: react-hook-form driven by the same zod schema the API validates with (from
 * the domain's contract), so a field is checked in the browser by the rule the server applies, and what the server
 * still refuses comes back beside the field it names.
 *
 * The schema comes as a function that imports it (`() => import('@/lib/…/contract').then((c) => c.SomeSchema)`, made
 * once beside the form), so zod is fetched when someone first enters a field, not with every page that draws a form: most
 * people open a page to read it, and zod is the largest script a form would add to the page's first load.
 */
export type FormRule<Input extends FieldValues, Output extends FieldValues> = () => Promise<z.ZodType<Output, Input>>;

export function useZodForm<Input extends FieldValues, Output extends FieldValues>(
  rule: FormRule<Input, Output>,
  defaultValues?: DefaultValues<Input>,
): UseFormReturn<Input, unknown, Output> {
  const load = useMemo(
    () =>
      fetchedOnce(() => Promise.all([import('@hookform/resolvers/zod'), rule()]).then(([{ zodResolver }, schema]) => zodResolver(schema))),
    [rule],
  );
  const resolver = useMemo(() => resolverOf(load), [load]);
  useFetchedOnFocus(load);
  return useForm<Input, unknown, Output>({ resolver, defaultValues, mode: 'onTouched' });
}

type Check<Input extends FieldValues, Output extends FieldValues> = Resolver<Input, unknown, Output>;

function resolverOf<Input extends FieldValues, Output extends FieldValues>(
  load: () => Promise<Check<Input, Output>>,
): Check<Input, Output> {
  return async (values, context, options) => {
    let check: Check<Input, Output>;
    try {
      check = await load();
    } catch {
      // the connection dropped before the rule arrived: the form is sent as typed and the API, which applies the same
      // rule, answers with the fields it refuses (showServerErrors)
      return { values: values as unknown as Output, errors: {} };
    }
    return check(values, context, options);
  };
}
