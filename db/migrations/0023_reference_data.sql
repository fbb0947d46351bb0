CREATE TABLE "associated_types" (
	"name" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"approval_required" boolean DEFAULT false NOT NULL,
	"approval_required_on_update" boolean DEFAULT true NOT NULL,
	"selectable" boolean DEFAULT true NOT NULL,
	"acceptance_text" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL,
	"time_updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sequencing_centres" (
	"name" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"approval_required" boolean DEFAULT false NOT NULL,
	"contacts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"selectable" boolean DEFAULT true NOT NULL,
	"position" integer NOT NULL,
	"time_updated" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- the reference system's lists as the service had them in lib/projects/enums.ts, in its order: from here on
-- administrators edit them (lib/reference). A re-upload asks again for every approval but SANGER's.
INSERT INTO "associated_types" ("name", "label", "approval_required", "approval_required_on_update", "selectable", "acceptance_text", "position") VALUES
  ('ASG', 'Aquatic Symbiosis Genomics (ASG)', true, true, false, '', 1),
  ('BGE', 'Biodiversity Genomics Europe (BGE)', true, true, true, 'Thank you: the samples of **{{profile_title}}** are accepted for {{associated_type}}.

What to do next:

1. Sign the material transfer agreement (MTA): [the BGE material transfer agreement](https://example.org/set-the-MTA-link). The samples can be shipped once it is signed.
2. Ship the samples to the sequencing centre ({{centres}}), following [the BGE shipping instructions](https://example.org/set-the-shipping-instructions-link).
3. Put the list of the tubes in the parcel: {{tubes}} (specimens {{specimens}}).

Questions about the agreement or the shipment go to the sequencing centre''s contacts: {{centre_contacts}}.', 2),
  ('BIOBLITZ', 'BioBlitz', true, true, true, '', 3),
  ('CBP', 'Catalan Initiative for the Earth BioGenome Project (CBP)', true, true, true, '', 4),
  ('DTOL', 'Darwin Tree of Life (DTOL)', true, true, false, '', 5),
  ('DTOL_ENV', 'Darwin Tree of Life Environmental Samples (DTOL_ENV)', false, true, false, '', 6),
  ('ERGA', 'European Reference Genome Atlas (ERGA)', false, true, false, '', 7),
  ('ERGA_PILOT', 'European Reference Genome Atlas - Pilot (ERGA_PILOT)', true, true, true, '', 8),
  ('ERGA_COMMUNITY', 'European Reference Genome Atlas - Community (ERGA_COMMUNITY)', true, true, true, '', 9),
  ('POP_GENOMICS', 'Population Genomics (POP_GENOMICS)', true, true, true, '', 10),
  ('SANGER', 'Sanger Institute Approval Needed (SANGER)', true, false, true, '', 11);--> statement-breakpoint
INSERT INTO "sequencing_centres" ("name", "label", "approval_required", "selectable", "position") VALUES
  ('UNIBA', 'UNIVERSITY OF BARI', false, true, 1),
  ('BIDGEN', 'DNA SEQUENCING AND GENOMICS LABORATORY, HELSINKI GENOMICS CORE FACILITY', false, true, 2),
  ('CNAG', 'CENTRO NACIONAL DE ANÁLISIS GENÓMICO', false, true, 3),
  ('EI', 'EARLHAM INSTITUTE', false, true, 4),
  ('FGCZ', 'FUNCTIONAL GENOMIC CENTER ZURICH', false, true, 5),
  ('GENOSCOPE', 'GENOSCOPE', false, true, 6),
  ('GTF', 'LAUSANNE GENOMIC TECHNOLOGIES FACILITY', false, true, 7),
  ('HANSEN', 'HANSEN LAB, DENMARK', false, true, 8),
  ('LIB', 'LEIBNIZ INSTITUTE FOR THE ANALYSIS OF BIODIVERSITY CHANGE, MUSEUM KOENIG, BONN', false, true, 9),
  ('NCCT', 'NGS COMPETENCE CENTER TÜBINGEN', false, true, 10),
  ('NGS', 'NGS BERN', false, true, 11),
  ('NSC', 'NORWEGIAN SEQUENCING CENTRE', false, true, 12),
  ('NSF', 'NEUROMICS SUPPORT FACILITY, UANTWERP, VIB', false, true, 13),
  ('PARTNER', 'INDUSTRY PARTNER', false, true, 14),
  ('SANGER', 'SANGER INSTITUTE', true, true, 15),
  ('SCILIFE', 'SCILIFELAB', false, true, 16),
  ('SVARDAL', 'SVARDAL LAB, ANTWERP', false, true, 17),
  ('UNIFI', 'UNIVERSITY OF FLORENCE', false, true, 18),
  ('WGGC', 'WEST GERMAN GENOME CENTRE', false, true, 19),
  ('OTHER', 'OTHER', false, true, 20);
