'use client';

import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { api, type Schema } from '@/lib/client/api';

/**
 * The admin's preview of an associated type's acceptance email: the text being edited, sent to the API, comes back
 * as the email would be sent, filled with example values. The HTML part is shown in a sandboxed frame that runs
 * nothing and shares nothing with the page, though the API makes it safe already; a refused text (an unknown
 * placeholder) says why, beside the button.
 */
export function AcceptancePreview({ name, text }: { name: string; text: string }) {
  const id = useId();
  const preview = useMutation<Schema<'AcceptancePreview'>, Error, string>({
    mutationFn: (acceptance_text) =>
      api.POST('/api/admin/associated-types/{name}/acceptance-preview', {
        params: { path: { name } },
        body: { acceptance_text },
      }),
  });
  const email = preview.data;
  return (
    <section className="stack" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>The acceptance email</h3>
      <p>
        <button type="button" onClick={() => preview.mutate(text)} disabled={preview.isPending}>
          {preview.isPending ? 'Filling in…' : 'Preview with example samples'}
        </button>
      </p>
      <div aria-live="polite">
        {preview.isError && (
          <p role="alert" className="notice error">
            {preview.error.message}
          </p>
        )}
      </div>
      {email && !preview.isError && (
        <>
          <dl>
            <dt>Subject</dt>
            <dd>{email.subject}</dd>
            <dt>Copied to</dt>
            <dd>{email.cc.length ? email.cc.join(', ') : 'nobody'}</dd>
          </dl>
          <iframe
            title={`The HTML part of ${name}’s acceptance email`}
            sandbox=""
            srcDoc={email.html}
            style={{ width: '100%', minHeight: '24rem', border: '1px solid currentColor' }}
          />
          <details>
            <summary>The plain-text part</summary>
            <pre style={{ whiteSpace: 'pre-wrap' }}>{email.text}</pre>
          </details>
        </>
      )}
    </section>
  );
}
