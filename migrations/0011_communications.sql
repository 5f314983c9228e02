CREATE TABLE `cart_recovery_items` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`email` text NOT NULL,
	`first_name` text,
	`last_name` text,
	`booking_info` text,
	`cart_data` text,
	`status` text DEFAULT 'active' NOT NULL,
	`contact_on` text,
	`contacted_at` text,
	`contact_message_id` text,
	`short_code` text,
	`completed_at` text,
	`transaction_id` text,
	`revenue` integer,
	`status_reason` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cart_recovery_due_idx` ON `cart_recovery_items` (`status`,`contact_on`);--> statement-breakpoint
CREATE INDEX `cart_recovery_location_idx` ON `cart_recovery_items` (`customer_id`,`location_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `scheduled_communications` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`template_id` text NOT NULL,
	`recipient_email` text NOT NULL,
	`rental_id` text,
	`delay_minutes` integer DEFAULT 0 NOT NULL,
	`trigger` text NOT NULL,
	`conditions` text NOT NULL,
	`status` text NOT NULL,
	`send_at` text,
	`status_reason` text,
	`message_id` text,
	`claimed_at` text,
	`processed_at` text,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `scheduled_comms_due_idx` ON `scheduled_communications` (`status`,`send_at`);--> statement-breakpoint
CREATE INDEX `scheduled_comms_rental_idx` ON `scheduled_communications` (`customer_id`,`rental_id`);--> statement-breakpoint
CREATE TABLE `sms_opt_outs` (
	`phone` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`keyword` text NOT NULL,
	`source` text NOT NULL,
	`to_number` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `short_links` (
	`code` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`original_url` text NOT NULL,
	`metadata` text NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`last_clicked_at` text,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `short_links_customer_idx` ON `short_links` (`customer_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `message_outbox` ADD `html` text;--> statement-breakpoint
ALTER TABLE `message_outbox` ADD `rental_id` text;--> statement-breakpoint
ALTER TABLE `message_outbox` ADD `provider_message_id` text;--> statement-breakpoint
ALTER TABLE `message_outbox` ADD `provider_status` text;--> statement-breakpoint
ALTER TABLE `message_outbox` ADD `status_reason` text;--> statement-breakpoint
ALTER TABLE `message_outbox` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `message_outbox` ADD `next_attempt_at` text;--> statement-breakpoint
ALTER TABLE `message_outbox` ADD `sent_at` text;--> statement-breakpoint
ALTER TABLE `message_outbox` ADD `updated_at` text;--> statement-breakpoint
CREATE INDEX `message_outbox_rental_idx` ON `message_outbox` (`customer_id`,`rental_id`);--> statement-breakpoint
CREATE INDEX `message_outbox_status_idx` ON `message_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `message_outbox_provider_idx` ON `message_outbox` (`provider_message_id`);