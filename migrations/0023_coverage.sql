CREATE TABLE `coverage_amendments` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`policy_id` text NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`due_at` text NOT NULL,
	`lease_until` text,
	`reason` text,
	`last_error` text,
	`completed_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coverage_amendments_uq` ON `coverage_amendments` (`policy_id`,`start`,`end`);--> statement-breakpoint
CREATE INDEX `coverage_amendments_due_idx` ON `coverage_amendments` (`status`,`due_at`);--> statement-breakpoint
CREATE TABLE `coverage_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`offering_id` text NOT NULL,
	`endpoint` text NOT NULL,
	`outcome` text NOT NULL,
	`status_code` integer,
	`duration_ms` integer NOT NULL,
	`error` text,
	`subject_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `coverage_calls_offering_idx` ON `coverage_calls` (`offering_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `coverage_enablements` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`offering_id` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coverage_enablements_uq` ON `coverage_enablements` (`customer_id`,`location_id`,`offering_id`);--> statement-breakpoint
CREATE INDEX `coverage_enablements_offering_idx` ON `coverage_enablements` (`offering_id`);--> statement-breakpoint
CREATE TABLE `coverage_flags` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`policy_id` text NOT NULL,
	`rental_id` text,
	`kind` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`message` text NOT NULL,
	`resolved_at` text,
	`resolution` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coverage_flags_dedupe_uq` ON `coverage_flags` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `coverage_flags_customer_idx` ON `coverage_flags` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `coverage_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`policy_id` text NOT NULL,
	`category` text NOT NULL,
	`message_id` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coverage_messages_uq` ON `coverage_messages` (`policy_id`,`category`);--> statement-breakpoint
CREATE TABLE `coverage_offerings` (
	`id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`name` text NOT NULL,
	`support_email` text NOT NULL,
	`base_url` text NOT NULL,
	`supported_countries` text NOT NULL,
	`currencies` text NOT NULL,
	`quote_timeout_ms` integer DEFAULT 2000 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`payout_account_id` text,
	`reschedule_delivery` text DEFAULT 'hourly' NOT NULL,
	`review_reasons` text,
	`review_note` text,
	`submitted_at` text,
	`reviewed_at` text,
	`approved_at` text,
	`version` integer DEFAULT 1 NOT NULL,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `coverage_offerings_partner_idx` ON `coverage_offerings` (`partner_id`);--> statement-breakpoint
CREATE INDEX `coverage_offerings_status_idx` ON `coverage_offerings` (`status`);--> statement-breakpoint
CREATE TABLE `coverage_payout_accounts` (
	`partner_id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`country` text NOT NULL,
	`status` text DEFAULT 'onboarding' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `coverage_policies` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`offering_id` text NOT NULL,
	`quote_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`rental_id` text,
	`location_id` text NOT NULL,
	`status` text NOT NULL,
	`premium` integer NOT NULL,
	`currency` text NOT NULL,
	`policy_number` text,
	`document_url` text,
	`covered_start` integer NOT NULL,
	`covered_end` integer NOT NULL,
	`paid_at` text NOT NULL,
	`bind_attempts` integer DEFAULT 0 NOT NULL,
	`next_bind_at` text,
	`bind_lease_until` text,
	`last_error` text,
	`bound_at` text,
	`transfer_status` text DEFAULT 'none' NOT NULL,
	`transfer_id` text,
	`cancelled_at` text,
	`cancel_reason` text,
	`cancel_status` text DEFAULT 'none' NOT NULL,
	`cancel_attempts` integer DEFAULT 0 NOT NULL,
	`next_cancel_at` text,
	`premium_refunded` integer DEFAULT false NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coverage_policies_quote_uq` ON `coverage_policies` (`quote_id`);--> statement-breakpoint
CREATE INDEX `coverage_policies_customer_idx` ON `coverage_policies` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `coverage_policies_rental_idx` ON `coverage_policies` (`rental_id`);--> statement-breakpoint
CREATE INDEX `coverage_policies_txn_idx` ON `coverage_policies` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `coverage_policies_bind_idx` ON `coverage_policies` (`status`,`next_bind_at`);--> statement-breakpoint
CREATE TABLE `coverage_quotes` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`offering_id` text NOT NULL,
	`location_id` text NOT NULL,
	`inventory_id` text NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`quantity` integer NOT NULL,
	`currency` text NOT NULL,
	`sandbox` integer DEFAULT false NOT NULL,
	`underwriter_quote_id` text NOT NULL,
	`estimate` integer NOT NULL,
	`premium` integer NOT NULL,
	`deposit_effect` text NOT NULL,
	`deposit_effect_value` real,
	`deposit_before` integer DEFAULT 0 NOT NULL,
	`deposit_after` integer DEFAULT 0 NOT NULL,
	`schema_version` text NOT NULL,
	`status` text NOT NULL,
	`answers` text,
	`reason` text,
	`transaction_id` text,
	`expires_at` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `coverage_quotes_customer_idx` ON `coverage_quotes` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `coverage_quotes_expiry_idx` ON `coverage_quotes` (`expires_at`);--> statement-breakpoint
CREATE TABLE `coverage_schemas` (
	`offering_id` text NOT NULL,
	`version` text NOT NULL,
	`fields` text NOT NULL,
	`dropped` text,
	`fetched_at` text NOT NULL,
	PRIMARY KEY(`offering_id`, `version`)
);
--> statement-breakpoint
CREATE TABLE `coverage_secrets` (
	`id` text PRIMARY KEY NOT NULL,
	`offering_id` text NOT NULL,
	`iv` text NOT NULL,
	`ciphertext` text NOT NULL,
	`prefix` text NOT NULL,
	`expires_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `coverage_secrets_offering_idx` ON `coverage_secrets` (`offering_id`);--> statement-breakpoint
CREATE TABLE `sim_transfers` (
	`id` text PRIMARY KEY NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`destination` text NOT NULL,
	`amount_reversed` integer DEFAULT 0 NOT NULL,
	`transfer_group` text,
	`metadata` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
