CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`last_used_at` text,
	`revoked_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_uq` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_customer_idx` ON `api_keys` (`customer_id`);--> statement-breakpoint
CREATE TABLE `audit_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text,
	`details` text,
	`request_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_customer_actor_idx` ON `audit_logs` (`customer_id`,`actor_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `audit_target_idx` ON `audit_logs` (`customer_id`,`target_id`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`business_name` text,
	`affiliate_code` text,
	`permissions` text NOT NULL,
	`integrations` text NOT NULL,
	`settings` text NOT NULL,
	`plan` text DEFAULT 'standard' NOT NULL,
	`is_sandbox` integer DEFAULT false NOT NULL,
	`payment_customer_id` text,
	`subscription_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `push_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`user_id` text NOT NULL,
	`token` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_tokens_user_token_uq` ON `push_tokens` (`user_id`,`token`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`role` text DEFAULT 'staff' NOT NULL,
	`permissions` text NOT NULL,
	`locations` text NOT NULL,
	`user_skills` text NOT NULL,
	`profile_name` text,
	`is_setup` integer DEFAULT false NOT NULL,
	`settings` text NOT NULL,
	`idp_subject` text,
	`phone` text,
	`terms_version` text,
	`terms_accepted_at` text,
	`invited_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_uq` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_idp_subject_uq` ON `users` (`idp_subject`);--> statement-breakpoint
CREATE INDEX `users_customer_idx` ON `users` (`customer_id`);--> statement-breakpoint
CREATE TABLE `message_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text,
	`channel` text NOT NULL,
	`to` text NOT NULL,
	`subject` text,
	`body` text NOT NULL,
	`template` text,
	`metadata` text,
	`status` text DEFAULT 'sent' NOT NULL,
	`provider` text DEFAULT 'outbox' NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `message_outbox_customer_idx` ON `message_outbox` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`status_code` integer,
	`error` text,
	`duration_ms` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`dedupe_key` text NOT NULL,
	`customer_id` text NOT NULL,
	`event_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`event_type` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`next_attempt_at` text,
	`first_attempt_at` text,
	`completed_at` text,
	`replay_of` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_dedupe_uq` ON `webhook_deliveries` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`customer_id`,`endpoint_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`events` text NOT NULL,
	`secret` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`owner_type` text DEFAULT 'operator' NOT NULL,
	`owner_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_customer_idx` ON `webhook_endpoints` (`customer_id`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`dispatched_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_events_undispatched_idx` ON `webhook_events` (`dispatched_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_events_customer_idx` ON `webhook_events` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `locations` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`name` text NOT NULL,
	`address` text NOT NULL,
	`phone_number` text NOT NULL,
	`connect_id` text,
	`timezone` text DEFAULT 'UTC' NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`details` text NOT NULL,
	`ivr_config` text,
	`latitude` real,
	`longitude` real,
	`status` text DEFAULT 'active' NOT NULL,
	`deletion_scheduled_at` text,
	`purge_after` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `locations_customer_idx` ON `locations` (`customer_id`);--> statement-breakpoint
CREATE INDEX `locations_purge_idx` ON `locations` (`status`,`purge_after`);--> statement-breakpoint
CREATE TABLE `phone_numbers` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`phone_number` text NOT NULL,
	`provider_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `phone_numbers_number_uq` ON `phone_numbers` (`phone_number`);--> statement-breakpoint
CREATE TABLE `staff_schedules` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`staff_id` text NOT NULL,
	`start_time` text NOT NULL,
	`end_time` text NOT NULL,
	`recurring` integer DEFAULT false NOT NULL,
	`recurrence_pattern` text,
	`rrule` text,
	`template_id` text,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `staff_schedules_location_idx` ON `staff_schedules` (`customer_id`,`location_id`);--> statement-breakpoint
CREATE INDEX `staff_schedules_staff_idx` ON `staff_schedules` (`staff_id`);--> statement-breakpoint
CREATE TABLE `sim_customers` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text,
	`name` text,
	`metadata` text,
	`default_payment_method_id` text,
	`deleted` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sim_payment_intents` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text,
	`payment_method_id` text,
	`amount` integer NOT NULL,
	`amount_capturable` integer DEFAULT 0 NOT NULL,
	`amount_received` integer DEFAULT 0 NOT NULL,
	`amount_refunded` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`capture_method` text DEFAULT 'automatic' NOT NULL,
	`status` text NOT NULL,
	`description` text,
	`metadata` text,
	`client_secret` text NOT NULL,
	`last_error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sim_pi_customer_idx` ON `sim_payment_intents` (`customer_id`);--> statement-breakpoint
CREATE TABLE `sim_payment_methods` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text,
	`type` text DEFAULT 'card' NOT NULL,
	`brand` text NOT NULL,
	`last4` text NOT NULL,
	`exp_month` integer NOT NULL,
	`exp_year` integer NOT NULL,
	`behavior` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sim_pm_customer_idx` ON `sim_payment_methods` (`customer_id`);--> statement-breakpoint
CREATE TABLE `sim_refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_intent_id` text NOT NULL,
	`amount` integer NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sim_setup_intents` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text,
	`client_secret` text NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sim_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`plan` text NOT NULL,
	`status` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`current_period_start` text NOT NULL,
	`current_period_end` text NOT NULL,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`canceled_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `inventory_items` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text DEFAULT 'rental' NOT NULL,
	`data` text NOT NULL,
	`display_order` integer DEFAULT 0 NOT NULL,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `inventory_customer_idx` ON `inventory_items` (`customer_id`,`display_order`);--> statement-breakpoint
CREATE INDEX `inventory_location_idx` ON `inventory_items` (`location_id`);