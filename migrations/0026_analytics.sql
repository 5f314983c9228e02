CREATE TABLE `ai_business_audits` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`website_url` text NOT NULL,
	`final_url` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`payment_intent_id` text NOT NULL,
	`payment_method_id` text,
	`score` integer NOT NULL,
	`report` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ai_business_audits_customer_idx` ON `ai_business_audits` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `ai_business_audits_intent_uq` ON `ai_business_audits` (`payment_intent_id`);--> statement-breakpoint
CREATE TABLE `analytics_ledger_months` (
	`location_id` text NOT NULL,
	`month` text NOT NULL,
	`kind` text NOT NULL,
	`entry_type` text NOT NULL,
	`customer_id` text NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`entries` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`location_id`, `month`, `kind`, `entry_type`)
);
--> statement-breakpoint
CREATE INDEX `analytics_ledger_months_customer_idx` ON `analytics_ledger_months` (`customer_id`,`month`);--> statement-breakpoint
CREATE TABLE `analytics_revenue_targets` (
	`location_id` text NOT NULL,
	`year` integer NOT NULL,
	`customer_id` text NOT NULL,
	`revenue_target` integer,
	`previous_year_revenue_override` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`location_id`, `year`)
);
--> statement-breakpoint
CREATE INDEX `analytics_revenue_targets_customer_idx` ON `analytics_revenue_targets` (`customer_id`);--> statement-breakpoint
CREATE TABLE `analytics_unrealized_bookings` (
	`rental_id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`completed_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `analytics_unrealized_customer_idx` ON `analytics_unrealized_bookings` (`customer_id`,`location_id`);