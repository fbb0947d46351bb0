CREATE TABLE "profile_files" (
	"profile_id" text NOT NULL,
	"file_name" text NOT NULL,
	"size_in_bytes" bigint NOT NULL,
	"etag" text NOT NULL,
	"last_uploaded" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profile_files_profile_id_file_name_pk" PRIMARY KEY("profile_id","file_name")
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"associated_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"sequencing_centres" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_owner_title_key" UNIQUE("owner_id","title"),
	CONSTRAINT "profiles_id_shape" CHECK ("profiles"."id" ~ '^[0-9a-f]{24}$'),
	CONSTRAINT "profiles_type" CHECK ("profiles"."type" in ('asg', 'dtol', 'dtolenv', 'erga', 'biodata', 'genomics'))
);
--> statement-breakpoint
CREATE TABLE "checklists" (
	"schema_name" text NOT NULL,
	"checklist_id" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"standard" text DEFAULT '' NOT NULL,
	"technology" text DEFAULT '' NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "checklists_schema_name_checklist_id_pk" PRIMARY KEY("schema_name","checklist_id")
);
--> statement-breakpoint
ALTER TABLE "profile_files" ADD CONSTRAINT "profile_files_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profiles_owner_updated_idx" ON "profiles" USING btree ("owner_id","updated_at");--> statement-breakpoint
CREATE INDEX "profiles_type_idx" ON "profiles" USING btree ("type");