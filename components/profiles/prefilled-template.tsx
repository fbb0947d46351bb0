'use client';

import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { saveFile } from '@/components/ui/csv-export';
import { FormOutcome, SubmitButton, TextField } from '@/components/ui/form';
import { plural } from '@/components/ui/words';
import { useZodForm } from '@/components/ui/zod-form';
import { ApiError, api } from '@/lib/client/api';
import { PREFILL_DEFAULT_ROWS, PREFILL_MAX_ROWS } from '@/lib/manifests/template-limits';
import type { CommonValues } from '@/lib/samples/contract';
import type { PrefillFormSchema } from './prefill-form';
import styles from './prefilled-template.module.css';

/**
 * "Download a pre-filled template" on a Tree of Life profile's page: the columns a sheet usually fills alike, each
 * offering the values this profile's samples used before (the most used first), and how many rows to fill. The
 * server checks each value by the field's own rules and names the field it refuses, which is shown beside it.
 */

type CommonField = CommonValues['fields'][number];

const prefillRule = () => import('./prefill-form').then((m) => m.PrefillFormSchema);

const usedWords = (n: number) => `used for ${plural(n, 'sample')}`;

export function PrefilledTemplate({ profileId }: { profileId: string }) {
  const q = useQuery({
    queryKey: ['common-values', profileId],
    queryFn: () => api.GET('/api/profiles/{profile_id}/common-values', { params: { path: { profile_id: profileId } } }),
  });
  if (q.isPending) {
    return (
      <p aria-busy="true" className="muted">
        Loading the values this profile used before…
      </p>
    );
  }
  if (q.isError) {
    return (
      <p role="alert" className="notice error">
        Could not load the values this profile used before: {q.error.message}
      </p>
    );
  }
  return <PrefillForm profileId={profileId} common={q.data} />;
}

function PrefillForm({ profileId, common }: { profileId: string; common: CommonValues }) {
  const id = useId();
  const headingId = `${id}-heading`;
  const form = useZodForm(prefillRule, {
    rows: String(PREFILL_DEFAULT_ROWS),
    values: Object.fromEntries(common.fields.map((f) => [f.field, f.profile_value ?? ''])),
  });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const type = common.project.toUpperCase();

  const onSubmit = form.handleSubmit(async ({ rows, values }) => {
    setError(null);
    setDone(null);
    const prefill = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
    const name = `${type}_manifest_template_v${common.version}_prefilled.xlsx`;
    try {
      const blob = await api.GET('/api/manifest/template', {
        params: { query: { profile_id: profileId, prefill: JSON.stringify(prefill), rows } },
        parseAs: 'blob',
      });
      saveFile(blob, name);
      const filled = Object.keys(prefill).length;
      setDone(`Downloaded ${name}: ${plural(rows, 'row')} with ${plural(filled, 'column')} filled in.`);
    } catch (err) {
      if (!(err instanceof ApiError)) {
        setError(err instanceof Error ? err.message : String(err));
        return;
      }
      let placed = 0;
      for (const e of err.errors) {
        const field = /^prefill\.(.+)$/.exec(e.path)?.[1];
        if (field && field in values) {
          form.setError(`values.${field}`, { type: 'server', message: e.message }, { shouldFocus: placed === 0 });
          placed += 1;
        }
      }
      setError(placed ? 'Please correct the values marked above.' : err.message);
    }
  });

  return (
    <form aria-labelledby={headingId} className={styles.form} onSubmit={(e) => void onSubmit(e)} noValidate>
      <h3 id={headingId}>Download a pre-filled template</h3>
      <p className="muted">
        The {type} template with the columns below filled in on every row, so that each row needs only what differs from sample to sample.
        Each list offers the values this profile’s samples used before, the most used first. Choose as many rows as you have samples: a row
        left with only these values is read as a sample missing the rest.
      </p>
      <div className={styles.fields}>
        {common.fields.map((f) => (
          <CommonFieldControl key={f.field} field={f} form={form} />
        ))}
      </div>
      <div className={styles.rows}>
        <TextField form={form} name="rows" label="Rows to fill" hint={`1 to ${PREFILL_MAX_ROWS}`} inputMode="numeric" required />
      </div>
      <div className="inline">
        <SubmitButton busy={form.formState.isSubmitting} busyLabel="Preparing the template…">
          Download the pre-filled template
        </SubmitButton>
      </div>
      <FormOutcome error={error} success={done} />
    </form>
  );
}

type PrefillFormState = UseFormReturn<z.input<typeof PrefillFormSchema>, unknown, z.output<typeof PrefillFormSchema>>;

/** One column: a list of its allowed values (those used first), or free text with the values used before suggested. */
function CommonFieldControl({ field: f, form }: { field: CommonField; form: PrefillFormState }) {
  const id = useId();
  const name = `values.${f.field}` as const;
  const error = form.formState.errors.values?.[f.field]?.message;
  const used = new Set(f.values.map((v) => v.value));
  const location = f.kind === 'location';
  const hint = location
    ? 'A country alone is written as “Country | ” for each row to complete with its region and locality.'
    : f.values.length
      ? `${plural(f.values.length, 'value')} used before`
      : 'Not used in this profile yet';
  const describedBy = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const control = {
    id: `${id}-control`,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
    ...form.register(name),
  };
  return (
    <div className="field">
      <label htmlFor={control.id}>
        <span>
          {f.label} <span className="muted mono">{f.field}</span>
        </span>
      </label>
      <span className="muted hint" id={`${id}-hint`}>
        {hint}
      </span>
      {f.allowed_values && !location ? (
        <select {...control}>
          <option value="">— leave empty —</option>
          {f.values.map((v) => (
            <option key={`used-${v.value}`} value={v.value}>
              {v.value} ({usedWords(v.samples)})
            </option>
          ))}
          {f.allowed_values
            .filter((v) => !used.has(v))
            .map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
        </select>
      ) : (
        <>
          <input type="text" autoComplete="off" list={`${id}-list`} {...control} />
          <datalist id={`${id}-list`}>
            {f.values.map((v) => (
              <option key={v.value} value={v.value} label={usedWords(v.samples)} />
            ))}
            {location && f.allowed_values?.filter((c) => !used.has(c)).map((c) => <option key={c} value={c} />)}
          </datalist>
        </>
      )}
      {error ? (
        <span className="field-error" id={`${id}-error`} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
