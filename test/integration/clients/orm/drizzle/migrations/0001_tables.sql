CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"public_id" "account_id" DEFAULT prefixed_id_new('acct') NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "accounts_public_id_unique" UNIQUE("public_id")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigint PRIMARY KEY DEFAULT snowflake(1) NOT NULL,
	"ref" "ulid" DEFAULT ulid() NOT NULL,
	"kind" text NOT NULL,
	CONSTRAINT "events_ref_unique" UNIQUE("ref")
);
--> statement-breakpoint
CREATE TABLE "pages" (
	"id" bigint PRIMARY KEY DEFAULT snowflake53(1) NOT NULL,
	"title" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" "user_id" PRIMARY KEY DEFAULT typeid_new('user') NOT NULL,
	"account_id" uuid NOT NULL,
	"email" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;