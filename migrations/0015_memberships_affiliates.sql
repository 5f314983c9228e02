CREATE TABLE `affiliate_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`affiliate_id` text NOT NULL,
	`kind` text NOT NULL,
	`source` text NOT NULL,
	`source_id` text NOT NULL,
	`basis` integer DEFAULT 0 NOT NULL,
	`rate` real,
	`amount` integer NOT NULL,
	`excluded` integer DEFAULT false NOT NULL,
	`earned_at` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `affiliate_entries_source_uq` ON `affiliate_entries` (`customer_id`,`affiliate_id`,`source`,`source_id`);--> statement-breakpoint
CREATE INDEX `affiliate_entries_affiliate_idx` ON `affiliate_entries` (`customer_id`,`affiliate_id`,`kind`);--> statement-breakpoint
CREATE TABLE `membership_credits` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`membership_id` text NOT NULL,
	`kind` text NOT NULL,
	`amount` integer NOT NULL,
	`balance_after` integer NOT NULL,
	`description` text NOT NULL,
	`staff_id` text,
	`reference` text,
	`created_at` text NOT NULL,
	CONSTRAINT "membership_credits_balance_ck" CHECK(balance_after >= 0)
);
--> statement-breakpoint
CREATE INDEX `membership_credits_membership_idx` ON `membership_credits` (`membership_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `membership_credits_reference_uq` ON `membership_credits` (`membership_id`,`kind`,`reference`);--> statement-breakpoint
CREATE TABLE `membership_events` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`membership_id` text NOT NULL,
	`type` text NOT NULL,
	`details` text,
	`actor` text,
	`version` integer,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `membership_events_membership_idx` ON `membership_events` (`membership_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `membership_events_version_uq` ON `membership_events` (`membership_id`,`version`);--> statement-breakpoint
CREATE TABLE `membership_family` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`membership_id` text NOT NULL,
	`renter_id` text NOT NULL,
	`email` text NOT NULL,
	`name` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `membership_family_member_uq` ON `membership_family` (`membership_id`,`renter_id`);--> statement-breakpoint
CREATE INDEX `membership_family_renter_idx` ON `membership_family` (`customer_id`,`renter_id`);--> statement-breakpoint
CREATE TABLE `membership_invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`membership_id` text NOT NULL,
	`number` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`period_start` text NOT NULL,
	`period_end` text NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`lines` text NOT NULL,
	`total` integer NOT NULL,
	`amount_paid` integer DEFAULT 0 NOT NULL,
	`amount_refunded` integer DEFAULT 0 NOT NULL,
	`renewal_key` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`paid_at` text,
	`reason` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "membership_invoices_refund_ck" CHECK(amount_refunded >= 0 AND amount_refunded <= amount_paid)
);
--> statement-breakpoint
CREATE INDEX `membership_invoices_membership_idx` ON `membership_invoices` (`customer_id`,`membership_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `membership_invoices_renewal_uq` ON `membership_invoices` (`membership_id`,`renewal_key`);--> statement-breakpoint
CREATE TABLE `membership_payments` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`membership_id` text NOT NULL,
	`invoice_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`payment_intent_id` text,
	`refund_id` text,
	`failure_code` text,
	`failure_message` text,
	`attempt` integer,
	`reason` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `membership_payments_invoice_idx` ON `membership_payments` (`customer_id`,`invoice_id`);--> statement-breakpoint
CREATE INDEX `membership_payments_membership_idx` ON `membership_payments` (`customer_id`,`membership_id`);--> statement-breakpoint
CREATE TABLE `membership_portal_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`membership_id` text NOT NULL,
	`kind` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `membership_portal_tokens_hash_uq` ON `membership_portal_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `membership_portal_tokens_expiry_idx` ON `membership_portal_tokens` (`expires_at`);--> statement-breakpoint
CREATE TABLE `membership_tiers` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`scope` text DEFAULT 'all_locations' NOT NULL,
	`location_ids` text NOT NULL,
	`monthly_price` integer,
	`yearly_price` integer,
	`currency` text DEFAULT 'usd' NOT NULL,
	`benefits` text NOT NULL,
	`pause_policy` text NOT NULL,
	`family_options` text NOT NULL,
	`allowed_member_types` text NOT NULL,
	`display_order` integer DEFAULT 0 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`is_public` integer DEFAULT false NOT NULL,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `membership_tiers_customer_idx` ON `membership_tiers` (`customer_id`,`display_order`);--> statement-breakpoint
CREATE TABLE `memberships` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`tier_id` text NOT NULL,
	`member_type` text DEFAULT 'individual' NOT NULL,
	`member_key` text NOT NULL,
	`renter_id` text,
	`organization_id` text,
	`member_email` text NOT NULL,
	`member_name` text,
	`member_phone` text,
	`billing_cycle` text NOT NULL,
	`price` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`status` text NOT NULL,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`canceled_at` text,
	`current_period_start` text NOT NULL,
	`current_period_end` text NOT NULL,
	`billing_anchor_day` integer NOT NULL,
	`next_charge_at` text,
	`dunning_attempts` integer DEFAULT 0 NOT NULL,
	`open_invoice_id` text,
	`past_due_since` text,
	`billing_claim` text,
	`billing_claim_until` text,
	`paused_at` text,
	`resume_at` text,
	`payment_customer_id` text,
	`payment_method_id` text,
	`staff_id` text,
	`notes` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memberships_live_member_uq` ON `memberships` (`customer_id`,`member_key`) WHERE status IN ('incomplete', 'active', 'paused', 'past_due');--> statement-breakpoint
CREATE INDEX `memberships_customer_status_idx` ON `memberships` (`customer_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `memberships_next_charge_idx` ON `memberships` (`status`,`next_charge_at`);--> statement-breakpoint
CREATE INDEX `memberships_resume_idx` ON `memberships` (`status`,`resume_at`);--> statement-breakpoint
CREATE INDEX `memberships_renter_idx` ON `memberships` (`customer_id`,`renter_id`);--> statement-breakpoint
CREATE INDEX `memberships_org_idx` ON `memberships` (`customer_id`,`organization_id`);--> statement-breakpoint
CREATE TABLE `organization_members` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`renter_id` text NOT NULL,
	`email` text,
	`first_name` text,
	`last_name` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organization_members_uq` ON `organization_members` (`organization_id`,`renter_id`);--> statement-breakpoint
CREATE INDEX `organization_members_renter_idx` ON `organization_members` (`customer_id`,`renter_id`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`name` text NOT NULL,
	`contact_email` text NOT NULL,
	`contact_name` text NOT NULL,
	`contact_phone` text,
	`billing_address` text,
	`max_authorized_renters` integer DEFAULT 10 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `organizations_customer_idx` ON `organizations` (`customer_id`,`name`);--> statement-breakpoint
ALTER TABLE `affiliates` ADD `recalculated_at` text;