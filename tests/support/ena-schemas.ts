import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';

/**
 * ENA's own XML Schemas (tests/fixtures/ena-xsd, sra_1_5, Apache-2.0), run by libxml2's validator (xmllint compiled
 * to WebAssembly): what Webin checks first, before any rule of its own. A Webin REST v2 `<WEBIN>` document has no
 * schema; each set inside it is validated against the schema that declares it, as Webin does.
 */

const XSD_DIR = path.join(import.meta.dirname, '..', 'fixtures', 'ena-xsd');

/** The schema file that declares each root element ENA takes. */
const SCHEMA_OF: Record<string, string> = {
  SUBMISSION_SET: 'SRA.submission.xsd',
  SUBMISSION: 'SRA.submission.xsd',
  PROJECT_SET: 'ENA.project.xsd',
  PROJECT: 'ENA.project.xsd',
  SAMPLE_SET: 'SRA.sample.xsd',
  SAMPLE: 'SRA.sample.xsd',
  EXPERIMENT_SET: 'SRA.experiment.xsd',
  EXPERIMENT: 'SRA.experiment.xsd',
  RUN_SET: 'SRA.run.xsd',
  RUN: 'SRA.run.xsd',
  STUDY_SET: 'SRA.study.xsd',
  STUDY: 'SRA.study.xsd',
  ANALYSIS_SET: 'SRA.analysis.xsd',
  ANALYSIS: 'SRA.analysis.xsd',
  RECEIPT: 'SRA.receipt.xsd',
};

const schemaFiles = new Map<string, string>();
const schemaText = (name: string): string => {
  let text = schemaFiles.get(name);
  if (text === undefined) {
    text = readFileSync(path.join(XSD_DIR, name), 'utf8');
    schemaFiles.set(name, text);
  }
  return text;
};

const rootName = (xml: string): string | undefined => /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*<([A-Za-z_][\w.-]*)/.exec(xml)?.[1];

/** The documents to validate: the sets of a `<WEBIN>` document, or the document itself. */
function documentsOf(xml: string): { root: string; contents: string }[] {
  const root = rootName(xml);
  if (root !== 'WEBIN') return root ? [{ root, contents: xml }] : [];
  const out: { root: string; contents: string }[] = [];
  // sets never nest inside one another, so each is the text from its start tag to its own end tag
  const sets = /<([A-Z_]+_SET)\b[^>]*?(?:\/>|>[\s\S]*?<\/\1\s*>)/g;
  for (const m of xml.matchAll(sets)) if (m[1]) out.push({ root: m[1], contents: `<?xml version="1.0" encoding="UTF-8"?>\n${m[0]}` });
  return out;
}

/**
 * Schema errors of an XML document ENA would take, in libxml2's words ("Element 'X': This element is not
 * expected…"); [] when it is valid. A root element no schema declares is an error too.
 */
export async function enaSchemaErrors(xml: string): Promise<string[]> {
  const docs = documentsOf(xml);
  if (!docs.length) return ['The document has no root element ENA knows.'];
  const errors: string[] = [];
  for (const doc of docs) {
    const schema = SCHEMA_OF[doc.root];
    if (!schema) {
      errors.push(`No ENA schema declares the element ${doc.root}.`);
      continue;
    }
    const result = await validateXML({
      xml: [{ fileName: `${doc.root}.xml`, contents: doc.contents }],
      schema: [{ fileName: schema, contents: schemaText(schema) }],
      preload: schema === 'SRA.receipt.xsd' ? [] : [{ fileName: 'SRA.common.xsd', contents: schemaText('SRA.common.xsd') }],
      maxMemoryPages: 4096,
    });
    if (!result.valid) for (const e of result.errors) errors.push(`${doc.root}: ${e.message.trim()}`);
  }
  return errors;
}
