import type { ReactNode } from 'react';
import styles from './manifests.module.css';
import type { Tone } from './words';

/** A state in words, coloured by its tone (the words carry the meaning; the colour only repeats it). */
export function StateBadge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <span className={`badge ${tone === 'ok' ? 'ok' : tone === 'danger' ? 'danger' : tone === 'warn' ? styles.warn : ''}`}>{children}</span>
  );
}
