import Link from 'next/link';
import type { ReactNode } from 'react';
import { DEFAULT_PAGE } from '@/lib/browse/lists';
import type { FilterControl } from './use-url-filter';

/** A group of checkboxes sending one comma list (project=dtol,erga), with its error under the group. */
export function CheckGroup(props: {
  legend: string;
  name: string;
  values: readonly string[];
  checked: ReadonlySet<string>;
  problem: ReactNode;
  label?: (value: string) => string;
}) {
  return (
    <fieldset aria-describedby={props.problem ? `${props.name}-error` : undefined}>
      <legend>{props.legend}</legend>
      <div className="checks">
        {props.values.map((v) => (
          <label key={v}>
            <input type="checkbox" name={props.name} value={v} defaultChecked={props.checked.has(v)} />
            {props.label ? props.label(v) : v}
          </label>
        ))}
      </div>
      {props.problem}
    </fieldset>
  );
}

/** The page size picker every browser shows. */
export function RowsPerPage({ control }: { control: FilterControl }) {
  return (
    <label>
      Rows per page
      <select {...control.props} defaultValue={control.value ?? String(DEFAULT_PAGE)}>
        {['25', '50', '100', '200', '500'].map((n) => (
          <option key={n}>{n}</option>
        ))}
      </select>
      {control.problem}
    </label>
  );
}

/** A choice of one sample field by name, with a first option that chooses none. */
export function FieldNamePicker(props: { label: string; none: string; names: readonly string[]; control: FilterControl }) {
  return (
    <label>
      {props.label}
      <select {...props.control.props} defaultValue={props.control.value ?? ''}>
        <option value="">{props.none}</option>
        {props.names.map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </select>
      {props.control.problem}
    </label>
  );
}

/** Apply and Clear, and the errors of parameters the form itself does not show. */
export function FilterActions(props: { clearHref: string; errors: string[] }) {
  return (
    <div className="actions">
      <button className="primary" type="submit">
        Apply filter
      </button>
      <Link className="button" href={props.clearHref}>
        Clear
      </Link>
      {props.errors.length > 0 && <span className="field-error">{props.errors.join(' ')}</span>}
    </div>
  );
}

/** Where a browser's results would be, when the page URL's filter is not valid: its fields say what is wrong. */
export function InvalidFilter() {
  return (
    <p role="alert" className="notice error">
      This link’s filter is not valid; correct the fields marked above.
    </p>
  );
}
