CREATE TABLE `automation_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`automation_id` text NOT NULL,
	`subject_id` text NOT NULL,
	`due_at` text NOT NULL,
	`status` text NOT NULL,
	`status_reason` text,
	`message_ids` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `automation_runs_uq` ON `automation_runs` (`automation_id`,`subject_id`);--> statement-breakpoint
CREATE INDEX `automation_runs_customer_idx` ON `automation_runs` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `message_automations` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`name` text NOT NULL,
	`trigger` text NOT NULL,
	`hours` integer DEFAULT 0 NOT NULL,
	`recipient` text NOT NULL,
	`staff_user_id` text,
	`channel` text NOT NULL,
	`template_id` text NOT NULL,
	`item_ids` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `message_automations_customer_idx` ON `message_automations` (`customer_id`,`active`);--> statement-breakpoint
CREATE TABLE `message_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`key` text NOT NULL,
	`scope` text NOT NULL,
	`name` text NOT NULL,
	`subject` text NOT NULL,
	`html` text NOT NULL,
	`text` text NOT NULL,
	`sms` text,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `message_templates_scope_uq` ON `message_templates` (`customer_id`,`key`,`scope`);