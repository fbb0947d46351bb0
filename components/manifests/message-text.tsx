import type { ReactNode } from 'react';
import styles from './report.module.css';
import { messageParts } from './report-csv';

const SHORT = 5;

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
  for (const p of messageParts(text)) {
    if ('text' in p) parts.push(p.text);
    else if (p.values.length <= SHORT) parts.push(<span key={p.at}>{words(p.values)}</span>);
    else if (listedAbove) parts.push(<span key={p.at}>the {p.values.length} values listed above</span>);
    else parts.push(<ValueList key={p.at} values={p.values} label={`the ${p.values.length} allowed values`} />);
  }
  return <>{parts}</>;
}
