'use client';

import { type MouseEvent, useRef, useState } from 'react';
import { formatNumber } from './words';

type State = { kind: 'idle' } | { kind: 'busy'; rows: number } | { kind: 'done'; rows: number } | { kind: 'failed'; message: string };

const NEWLINE = 10;

/**
 * A link to an API URL that streams CSV. Without JavaScript it is a plain download; with it, the file is read here
 * so that a long export shows how far it has got and can be cancelled, then saved under the server's file name.
 */
export function CsvExport({ href, total, label = 'Export as CSV' }: { href: string; total?: number; label?: string }) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);

  async function run(e: MouseEvent<HTMLAnchorElement>) {
    e.preventDefault();
    if (state.kind === 'busy') return;
    const controller = new AbortController();
    abort.current = controller;
    setState({ kind: 'busy', rows: 0 });
    try {
      const res = await fetch(href, { credentials: 'same-origin', signal: controller.signal });
      if (!res.ok || !res.body) {
        const problem = (await res.json().catch(() => null)) as { detail?: string } | null;
        throw new Error(problem?.detail ?? `${res.status} ${res.statusText}`);
      }
      const reader = res.body.getReader();
      const parts: ArrayBuffer[] = [];
      let lines = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value.slice().buffer);
        for (const byte of value) if (byte === NEWLINE) lines++;
        // the header is one line; a value holding a line break counts twice, which only the estimate sees
        setState({ kind: 'busy', rows: Math.max(0, lines - 1) });
      }
      const name = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';
      saveFile(new Blob(parts, { type: 'text/csv' }), name);
      setState({ kind: 'done', rows: Math.max(0, lines - 1) });
    } catch (err) {
      if (controller.signal.aborted) setState({ kind: 'idle' });
      else setState({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
  }

  const busy = state.kind === 'busy';
  return (
    <div className="inline" style={{ alignItems: 'center' }}>
      <a className="button" href={href} onClick={(e) => void run(e)} aria-disabled={busy || undefined} download>
        {busy ? 'Exporting…' : label}
      </a>
      <span role="status" aria-live="polite" className="inline" style={{ alignItems: 'center' }}>
        {busy && (
          <>
            {total !== undefined && total > 0 && <progress max={total} value={Math.min(state.rows, total)} aria-label="Export progress" />}
            <span>
              {formatNumber(state.rows)}
              {total !== undefined ? ` of ${formatNumber(total)}` : ''} rows
            </span>
          </>
        )}
        {state.kind === 'done' && <span className="muted">Exported {formatNumber(state.rows)} rows.</span>}
      </span>
      {busy && (
        <button type="button" onClick={() => abort.current?.abort()}>
          Cancel export
        </button>
      )}
      {state.kind === 'failed' && (
        <span role="alert" className="field-error">
          Export failed: {state.message}
        </span>
      )}
    </div>
  );
}

/** Hands a file made in the browser to the reader as a download under `name`. */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // by then the download has started: revoking the address lets the browser free the file
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
