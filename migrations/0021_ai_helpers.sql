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
CREATE UNIQUE INDEX `ai_business_audits_intent_uq` ON `ai_business_audits` (`payment_intent_id`);