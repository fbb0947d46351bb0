import { describe, expect, it } from 'vitest';
import { plainMessage, reportCsv } from '@/components/manifests/report-csv';
import { list, messages } from '@/lib/manifests/messages';

/**
 * A report's CSV download words the reference's messages for people: its quoted Python lists ("['A', 'B']") read
 * "A or B", while the API's JSON keeps the reference's sentences (tests/contract pins them).
 */

const issue = (message: string, rule = 'missing') => ({
  row: 4,
  tube: 'FD00000004',
  column: 'AD',
  field: 'ORGANISM_PART',
  value: '',
  rule,
  message,
  severity: 'error' as const,
});

describe('the CSV of a report', () => {
  it('words the allowed values of a message as a readable list, and keeps the API message as the reference wrote it', () => {
    const missing = messages.missing('ORGANISM_PART', 4);
    expect(missing).toContain("['NOT_APPLICABLE', 'NOT_COLLECTED', 'NOT_PROVIDED']");
    expect(plainMessage(missing)).toContain('Values of NOT_APPLICABLE, NOT_COLLECTED or NOT_PROVIDED are allowed');
    const invalid = messages.invalid('LEAF?', 'ORGANISM_PART', 5, list(['WHOLE_ORGANISM', 'LEAF']));
    expect(plainMessage(invalid)).toBe('Invalid data: LEAF? in column ORGANISM_PART at row 5. Allowed values are WHOLE_ORGANISM or LEAF');

    const csv = reportCsv({ errors: [issue(missing), issue(invalid, 'invalid')], warnings: [] });
    const lines = csv.trimEnd().split('\n');
    expect(lines[0]).toBe('severity,row,tube,column,field,value,rule,message');
    expect(lines).toHaveLength(3);
    expect(csv).not.toMatch(/\['/);
    // a message with a comma is one quoted cell
    // each row names its tube, as people know the sample
    expect(lines[1]).toBe(`error,4,FD00000004,AD,ORGANISM_PART,,missing,"${plainMessage(missing)}"`);
    expect(lines[2]).toContain('Allowed values are WHOLE_ORGANISM or LEAF');
  });

  it('leaves a message without a list as it is, and a one-value list as that value', () => {
    expect(plainMessage('Manifest uploaded is empty')).toBe('Manifest uploaded is empty');
    expect(plainMessage("Allowed values are ['Y']")).toBe('Allowed values are Y');
  });
});
