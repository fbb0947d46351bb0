CREATE TABLE "group_members" (
	"group_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_members_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "groups_owner_name_key" UNIQUE("owner_id","name")
);
--> statement-breakpoint
CREATE TABLE "profile_shares" (
	"id" serial PRIMARY KEY NOT NULL,
	"profile_id" text NOT NULL,
	"user_id" integer,
	"group_id" integer,
	"role" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profile_shares_one_grantee" CHECK (("profile_shares"."user_id" is null) <> ("profile_shares"."group_id" is null)),
	CONSTRAINT "profile_shares_role" CHECK ("profile_shares"."role" in ('viewer', 'contributor'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "orcid_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "full_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_shares" ADD CONSTRAINT "profile_shares_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_shares" ADD CONSTRAINT "profile_shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_shares" ADD CONSTRAINT "profile_shares_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_shares" ADD CONSTRAINT "profile_shares_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "group_members_user_idx" ON "group_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_shares_profile_user_key" ON "profile_shares" USING btree ("profile_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_shares_profile_group_key" ON "profile_shares" USING btree ("profile_id","group_id");--> statement-breakpoint
CREATE INDEX "profile_shares_user_idx" ON "profile_shares" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "profile_shares_group_idx" ON "profile_shares" USING btree ("group_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_orcid_id_unique" UNIQUE("orcid_id");