import type { ReactNode } from 'react';
import styles from './report.module.css';

// the reference's messages quote lists the Python way: ['A', 'B', 'C']
const PY_LIST = /\['([\s\S]*?)'\]/g;
const SHORT = 5;

const valuesOf = (inner: string): string[] => inner.split(/',\s*'/);

/** "A, B or C" */
function words(values: string[]): ReactNode {
  return values.map((v, i) => (
    <span key={v}>
      {i === 0 ? '' : i === values.length - 1 ? ' or ' : ', '}
      <code>{v}</code>
    </span>
  ));
}

/** A list of values that can be opened, for lists too long to read in a sentence. */
export function ValueList({ values, label, open = false }: { values: string[]; label: string; open?: boolean }) {
  return (
    <details className={styles.values} open={open}>
      <summary>{label}</summary>
      <ul>
        {values.map((v) => (
          <li key={v}>
            <code>{v}</code>
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * A validation message with its quoted lists shown as lists: a short one as words ("A, B or C"), a long one as a
 * list that opens, or, where the list is shown already (`listedAbove`), a pointer to it.
 */
export function MessageText({ text, listedAbove = false }: { text: string; listedAbove?: boolean }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(PY_LIST)) {
    const values = valuesOf(m[1] ?? '');
    parts.push(text.slice(last, m.index));
    if (values.length <= SHORT) parts.push(<span key={m.index}>{words(values)}</span>);
    else if (listedAbove) parts.push(<span key={m.index}>the {values.length} values listed above</span>);
    else parts.push(<ValueList key={m.index} values={values} label={`the ${values.length} allowed values`} />);
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}
