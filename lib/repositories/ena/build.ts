import { Invalid } from '@/lib/errors';
import {
  ANALYSIS_FILE_TYPES,
  type AnalysisSpec,
  type Attribute,
  type BrokerDefaults,
  type ExperimentSpec,
  type ObjectLink,
  type ObjectRef,
  type ProjectSpec,
  type RunSpec,
  type SampleSpec,
  type SubmissionAction,
  type SubmissionSpec,
  type WebinDocument,
} from './types';
import { buildXml, compact, element, type XmlNode, xmlText } from './xml';

/**
 * Builders of ENA's XML objects (ENA.submission.xsd, ENA.project.xsd, SRA.sample.xsd, SRA.experiment.xsd,
 * SRA.run.xsd, SRA.analysis.xsd, ENA.webin.xsd). `*Node` functions give the element as an object for composition; `build*Xml`
 * functions give a whole document.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const opt = (v: string | undefined): string | undefined => (v === undefined || v === '' ? undefined : xmlText(v));

function requireAlias(kind: string, alias: string): void {
  if (!alias?.trim()) throw Invalid(`An ENA ${kind} needs an alias.`);
}

function attributesNode(childName: string, attributes: Attribute[] | undefined): XmlNode | undefined {
  if (!attributes?.length) return undefined;
  return {
    [childName]: attributes.map((a) => compact({ TAG: xmlText(a.tag), VALUE: xmlText(a.value), UNITS: opt(a.units) })),
  };
}

function linksNode(childName: string, links: ObjectLink[] | undefined): XmlNode | undefined {
  if (!links?.length) return undefined;
  return {
    [childName]: links.map((l) =>
      'xref' in l
        ? { XREF_LINK: { DB: xmlText(l.xref.db), ID: xmlText(l.xref.id) } }
        : { URL_LINK: { LABEL: xmlText(l.url.label), URL: xmlText(l.url.url) } },
    ),
  };
}

function refNode(ref: ObjectRef): XmlNode {
  return 'accession' in ref ? element({ accession: ref.accession }) : element({ refname: ref.refname });
}

function actionNode(action: SubmissionAction): XmlNode {
  switch (action.type) {
    case 'ADD':
    case 'MODIFY':
    case 'VALIDATE':
      return { [action.type]: '' };
    case 'HOLD':
      if (action.holdUntilDate !== undefined && !DATE.test(action.holdUntilDate))
        throw Invalid(`HOLD date must be YYYY-MM-DD, not '${action.holdUntilDate}'.`);
      return { HOLD: element({ target: action.target, HoldUntilDate: action.holdUntilDate }) };
    case 'RELEASE':
      return { RELEASE: element({ target: action.target }) };
    case 'CANCEL':
    case 'RECEIPT':
      if (!action.target) throw Invalid(`${action.type} needs a target alias or accession.`);
      return { [action.type]: element({ target: action.target }) };
  }
}

export function submissionNode(spec: SubmissionSpec, defaults: BrokerDefaults = {}): XmlNode {
  if (!spec.actions.length) throw Invalid('An ENA submission needs at least one action.');
  const contacts = spec.contacts?.length
    ? {
        CONTACT: spec.contacts.map((c) => element({ name: c.name, inform_on_status: c.informOnStatus, inform_on_error: c.informOnError })),
      }
    : undefined;
  return compact({
    ...element({
      alias: spec.alias,
      center_name: spec.centerName ?? defaults.centerName,
      broker_name: spec.brokerName ?? defaults.brokerName,
    }),
    CONTACTS: contacts,
    ACTIONS: { ACTION: spec.actions.map(actionNode) },
  });
}

const PROJECT_TEXT_MIN = 20;

/** The text as it is, once its length without surrounding spaces is within ENA's limits. */
function lengthChecked(alias: string, what: 'title' | 'description', text: string, max: number): string {
  const length = text.trim().length;
  if (length < PROJECT_TEXT_MIN || length > max) {
    throw Invalid(
      `ENA needs a study ${what} of ${PROJECT_TEXT_MIN} to ${max} characters; the ${what} of '${alias}' has ${length}: "${text.trim().slice(0, 60)}".`,
    );
  }
  return text;
}

export function projectNode(spec: ProjectSpec, defaults: BrokerDefaults = {}): XmlNode {
  requireAlias('project', spec.alias);
  if (!spec.title?.trim()) throw Invalid(`ENA project '${spec.alias}' needs a title.`);
  // ENA.project.xsd: TITLE and DESCRIPTION are required, each of 20 characters or more
  const title = lengthChecked(spec.alias, 'title', spec.title, 250);
  const description = lengthChecked(spec.alias, 'description', spec.description?.trim() ? spec.description : spec.title, 4000);
  const kind: XmlNode = spec.umbrella
    ? { UMBRELLA_PROJECT: '' }
    : {
        SUBMISSION_PROJECT: {
          SEQUENCING_PROJECT: spec.locusTagPrefixes?.length ? { LOCUS_TAG_PREFIX: spec.locusTagPrefixes.map(xmlText) } : '',
        },
      };
  return compact({
    ...element({ alias: spec.alias, center_name: spec.centerName ?? defaults.centerName }),
    NAME: opt(spec.name),
    TITLE: xmlText(title),
    DESCRIPTION: xmlText(description),
    ...kind,
    PROJECT_LINKS: linksNode('PROJECT_LINK', spec.links),
    PROJECT_ATTRIBUTES: attributesNode('PROJECT_ATTRIBUTE', spec.attributes),
  });
}

export function sampleNode(spec: SampleSpec, defaults: BrokerDefaults = {}): XmlNode {
  requireAlias('sample', spec.alias);
  if (!/^\d+$/.test(spec.taxonId)) throw Invalid(`ENA sample '${spec.alias}' needs a numeric TAXON_ID, not '${spec.taxonId}'.`);
  return compact({
    ...element({ alias: spec.alias, center_name: spec.centerName ?? defaults.centerName }),
    TITLE: opt(spec.title),
    SAMPLE_NAME: compact({
      TAXON_ID: spec.taxonId,
      SCIENTIFIC_NAME: opt(spec.scientificName),
      COMMON_NAME: opt(spec.commonName),
    }),
    DESCRIPTION: opt(spec.description),
    SAMPLE_LINKS: linksNode('SAMPLE_LINK', spec.links),
    SAMPLE_ATTRIBUTES: attributesNode('SAMPLE_ATTRIBUTE', spec.attributes),
  });
}

export function experimentNode(spec: ExperimentSpec, defaults: BrokerDefaults = {}): XmlNode {
  requireAlias('experiment', spec.alias);
  const layout = spec.libraryLayout;
  const layoutNode: XmlNode =
    layout.type === 'SINGLE'
      ? { SINGLE: '' }
      : {
          PAIRED: element({
            NOMINAL_LENGTH: layout.nominalLength === undefined ? undefined : String(layout.nominalLength),
            NOMINAL_SDEV: layout.nominalSdev === undefined ? undefined : String(layout.nominalSdev),
          }),
        };
  return compact({
    ...element({ alias: spec.alias, center_name: spec.centerName ?? defaults.centerName }),
    TITLE: opt(spec.title),
    STUDY_REF: refNode(spec.study),
    DESIGN: {
      DESIGN_DESCRIPTION: xmlText(spec.designDescription ?? ''),
      SAMPLE_DESCRIPTOR: refNode(spec.sample),
      LIBRARY_DESCRIPTOR: compact({
        LIBRARY_NAME: opt(spec.libraryName),
        LIBRARY_STRATEGY: xmlText(spec.libraryStrategy),
        LIBRARY_SOURCE: xmlText(spec.librarySource),
        LIBRARY_SELECTION: xmlText(spec.librarySelection),
        LIBRARY_LAYOUT: layoutNode,
        LIBRARY_CONSTRUCTION_PROTOCOL: opt(spec.libraryConstructionProtocol),
      }),
    },
    PLATFORM: { [platformName(spec.platform)]: { INSTRUMENT_MODEL: xmlText(spec.instrumentModel) } },
    EXPERIMENT_ATTRIBUTES: attributesNode('EXPERIMENT_ATTRIBUTE', spec.attributes),
  });
}

function platformName(platform: string): string {
  const name = platform
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  if (!/^[A-Z][A-Z0-9_]*$/.test(name)) throw Invalid(`'${platform}' is not an ENA platform.`);
  return name;
}

export function runNode(spec: RunSpec, defaults: BrokerDefaults = {}): XmlNode {
  requireAlias('run', spec.alias);
  if (!spec.files.length) throw Invalid(`ENA run '${spec.alias}' needs at least one file.`);
  return compact({
    ...element({ alias: spec.alias, center_name: spec.centerName ?? defaults.centerName }),
    TITLE: opt(spec.title),
    EXPERIMENT_REF: refNode(spec.experiment),
    DATA_BLOCK: {
      FILES: {
        FILE: spec.files.map((f) =>
          element({
            filename: f.filename,
            filetype: f.filetype,
            checksum_method: f.checksumMethod ?? 'MD5',
            checksum: f.checksum,
          }),
        ),
      },
    },
    RUN_ATTRIBUTES: attributesNode('RUN_ATTRIBUTE', spec.attributes),
  });
}

const MD5 = /^[0-9a-fA-F]{32}$/;
const FILE_TYPES: readonly string[] = ANALYSIS_FILE_TYPES;

/**
 * An ANALYSIS, its children in the order of SRA.analysis.xsd's AnalysisType (TITLE, DESCRIPTION, STUDY_REF,
 * SAMPLE_REF*, EXPERIMENT_REF*, RUN_REF*, ANALYSIS_REF*, ANALYSIS_TYPE, FILES, ANALYSIS_LINKS, ANALYSIS_ATTRIBUTES).
 * Files are checked here as the other builders check their specs: one bad FILE makes Webin refuse the whole document.
 */
export function analysisNode(spec: AnalysisSpec, defaults: BrokerDefaults = {}): XmlNode {
  requireAlias('analysis', spec.alias);
  if (!spec.title?.trim()) throw Invalid(`ENA analysis '${spec.alias}' needs a title.`);
  if (!spec.study) throw Invalid(`ENA analysis '${spec.alias}' needs the study it belongs to.`);
  if (spec.analysisType !== 'SEQUENCE_ANNOTATION')
    throw Invalid(`ENA analysis '${spec.alias}': only SEQUENCE_ANNOTATION analyses are built, not '${spec.analysisType}'.`);
  if (!spec.files?.length) throw Invalid(`ENA analysis '${spec.alias}' needs at least one file.`);
  for (const f of spec.files) {
    if (!f.filename?.trim()) throw Invalid(`ENA analysis '${spec.alias}' has a file without a name.`);
    if (!FILE_TYPES.includes(f.filetype))
      throw Invalid(`ENA analysis '${spec.alias}': '${f.filetype}' (file ${f.filename}) is not an ENA analysis file type.`);
    // SRA.analysis.xsd allows no other checksum_method for an analysis file
    if (f.checksumMethod !== 'MD5')
      throw Invalid(`ENA analysis '${spec.alias}': file ${f.filename} needs an MD5 checksum, not ${String(f.checksumMethod)}.`);
    if (!MD5.test(f.checksum)) throw Invalid(`ENA analysis '${spec.alias}': '${f.checksum}' is not the MD5 of file ${f.filename}.`);
  }
  const refs = (list: AnalysisSpec['samples'] | undefined) => (list?.length ? list.map(refNode) : undefined);
  return compact({
    ...element({ alias: spec.alias, center_name: spec.centerName ?? defaults.centerName }),
    TITLE: xmlText(spec.title),
    DESCRIPTION: opt(spec.description),
    STUDY_REF: refNode(spec.study),
    SAMPLE_REF: refs(spec.samples),
    RUN_REF: refs(spec.runs),
    ANALYSIS_TYPE: { [spec.analysisType]: '' },
    FILES: {
      FILE: spec.files.map((f) =>
        element({ filename: f.filename, filetype: f.filetype, checksum_method: f.checksumMethod, checksum: f.checksum }),
      ),
    },
    ANALYSIS_ATTRIBUTES: attributesNode('ANALYSIS_ATTRIBUTE', spec.attributes),
  });
}

export const buildSubmissionXml = (spec: SubmissionSpec, defaults?: BrokerDefaults): string =>
  buildXml({ SUBMISSION_SET: { SUBMISSION: [submissionNode(spec, defaults)] } });
export const buildProjectXml = (specs: ProjectSpec[], defaults?: BrokerDefaults): string =>
  buildXml({ PROJECT_SET: { PROJECT: specs.map((s) => projectNode(s, defaults)) } });
export const buildSampleXml = (specs: SampleSpec[], defaults?: BrokerDefaults): string =>
  buildXml({ SAMPLE_SET: { SAMPLE: specs.map((s) => sampleNode(s, defaults)) } });
export const buildExperimentXml = (specs: ExperimentSpec[], defaults?: BrokerDefaults): string =>
  buildXml({ EXPERIMENT_SET: { EXPERIMENT: specs.map((s) => experimentNode(s, defaults)) } });
export const buildRunXml = (specs: RunSpec[], defaults?: BrokerDefaults): string =>
  buildXml({ RUN_SET: { RUN: specs.map((s) => runNode(s, defaults)) } });
export const buildAnalysisXml = (specs: AnalysisSpec[], defaults?: BrokerDefaults): string =>
  buildXml({ ANALYSIS_SET: { ANALYSIS: specs.map((s) => analysisNode(s, defaults)) } });

/** The single `<WEBIN>` document Webin REST v2 takes: the submission and every object set that is not empty. */
export function buildWebinXml(doc: WebinDocument, defaults: BrokerDefaults = {}): string {
  const set = <T>(name: string, child: string, items: T[] | undefined, node: (s: T, d: BrokerDefaults) => XmlNode) =>
    items?.length ? { [name]: { [child]: items.map((i) => node(i, defaults)) } } : {};
  return buildXml({
    WEBIN: {
      SUBMISSION_SET: { SUBMISSION: [submissionNode(doc.submission, defaults)] },
      ...set('PROJECT_SET', 'PROJECT', doc.projects, projectNode),
      ...set('SAMPLE_SET', 'SAMPLE', doc.samples, sampleNode),
      ...set('EXPERIMENT_SET', 'EXPERIMENT', doc.experiments, experimentNode),
      ...set('RUN_SET', 'RUN', doc.runs, runNode),
      ...set('ANALYSIS_SET', 'ANALYSIS', doc.analyses, analysisNode),
    },
  });
}
