/**
 * The ENA platform (the element under EXPERIMENT/PLATFORM) of each sequencing instrument model the single-cell
 * schema lists (docs/studies-and-checklists.md §7, from COPO's sequencing_instrument lookup).
 */
const PLATFORM_INSTRUMENTS: Record<string, readonly string[]> = {
  LS454: ['454 GS', '454 GS 20', '454 GS FLX', '454 GS FLX Titanium', '454 GS FLX+', '454 GS Junior'],
  CAPILLARY: [
    'AB 310 Genetic Analyzer',
    'AB 3130 Genetic Analyzer',
    'AB 3130xL Genetic Analyzer',
    'AB 3500 Genetic Analyzer',
    'AB 3500xL Genetic Analyzer',
    'AB 3730 Genetic Analyzer',
    'AB 3730xL Genetic Analyzer',
  ],
  ABI_SOLID: [
    'AB 5500 Genetic Analyzer',
    'AB 5500xl Genetic Analyzer',
    'AB 5500xl-W Genetic Analysis System',
    'AB SOLiD 3 Plus System',
    'AB SOLiD 4 System',
    'AB SOLiD 4hq System',
    'AB SOLiD PI System',
    'AB SOLiD System',
    'AB SOLiD System 2.0',
    'AB SOLiD System 3.0',
  ],
  BGISEQ: ['BGISEQ-50', 'BGISEQ-500', 'MGISEQ-2000RS'],
  COMPLETE_GENOMICS: ['Complete Genomics'],
  DNBSEQ: ['DNBSEQ-G400', 'DNBSEQ-G400 FAST', 'DNBSEQ-G50', 'DNBSEQ-T10x4RS', 'DNBSEQ-T7'],
  ELEMENT: ['Element AVITI'],
  GENEMIND: ['FASTASeq 300', 'GenoCare 1600', 'GenoLab M'],
  GENAPSYS: ['GENIUS', 'GS111', 'Genapsys Sequencer'],
  OXFORD_NANOPORE: ['GridION', 'MinION', 'PromethION'],
  ILLUMINA: [
    'Illumina Genome Analyzer',
    'Illumina Genome Analyzer II',
    'Illumina Genome Analyzer IIx',
    'Illumina HiScanSQ',
    'Illumina HiSeq 1000',
    'Illumina HiSeq 1500',
    'Illumina HiSeq 2000',
    'Illumina HiSeq 2500',
    'Illumina HiSeq 3000',
    'Illumina HiSeq 4000',
    'Illumina HiSeq X',
    'Illumina HiSeq X Five',
    'Illumina HiSeq X Ten',
    'Illumina MiSeq',
    'Illumina MiniSeq',
    'Illumina NextSeq 500',
    'Illumina NextSeq 550',
    'Illumina NovaSeq 6000',
    'Illumina NovaSeq X',
    'Illumina NovaSeq X Plus',
    'Illumina iSeq 100',
    'NextSeq 1000',
    'NextSeq 2000',
  ],
  ION_TORRENT: [
    'Ion GeneStudio S5',
    'Ion GeneStudio S5 Plus',
    'Ion GeneStudio S5 Prime',
    'Ion Torrent Genexus',
    'Ion Torrent PGM',
    'Ion Torrent Proton',
    'Ion Torrent S5',
    'Ion Torrent S5 XL',
  ],
  PACBIO_SMRT: ['Onso', 'PacBio RS', 'PacBio RS II', 'Revio', 'Sequel', 'Sequel II', 'Sequel IIe'],
  VELA_DIAGNOSTICS: ['Sentosa SQ301'],
  TAPESTRI: ['Tapestri'],
  ULTIMA: ['UG 100'],
};

const BY_INSTRUMENT = new Map<string, string>(
  Object.entries(PLATFORM_INSTRUMENTS).flatMap(([platform, models]) => models.map((m) => [m.toLowerCase(), platform] as const)),
);

/** The ENA platform of an instrument model, or undefined for a model ENA does not list. */
export const platformOf = (instrumentModel: string): string | undefined => BY_INSTRUMENT.get(instrumentModel.trim().toLowerCase());
