'use client';

import type { ReactNode } from 'react';
import { type DropzoneOptions, useDropzone } from 'react-dropzone';

export interface DropZoneProps {
  /** what react-dropzone is told: callbacks, accepted types, one file or several, disabled */
  options: DropzoneOptions;
  /** the accessible name: what dropping here does, and that a key press opens the file chooser */
  label: string;
  /** the id of the message about the last drop, when there is one */
  describedBy?: string;
  /** the last drop was refused */
  invalid?: boolean;
  className?: string;
  testId?: string;
  inputTestId?: string;
  /** the words in the zone */
  prompt: ReactNode;
  /** the words while files are dragged over it */
  dropPrompt?: ReactNode;
}

/**
 * The portal's one drop target for files: a button-like zone (no nested controls, so axe finds none) that takes a
 * drop or opens the file chooser on click, Enter or Space, and says when files are over it or it is disabled.
 */
export function DropZone({ options, label, describedBy, invalid, className, testId, inputTestId, prompt, dropPrompt }: DropZoneProps) {
  const { getRootProps, getInputProps, isDragActive } = useDropzone(options);
  return (
    <div
      {...getRootProps({
        className: className ? `dropzone ${className}` : 'dropzone',
        'aria-label': label,
        'aria-describedby': describedBy,
      })}
      data-testid={testId}
      data-active={isDragActive}
      data-disabled={options.disabled ? 'true' : undefined}
      data-invalid={invalid ? 'true' : undefined}
    >
      <input {...getInputProps()} data-testid={inputTestId} />
      {isDragActive && dropPrompt ? dropPrompt : prompt}
    </div>
  );
}
