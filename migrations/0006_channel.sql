CREATE TABLE `channel_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`channel_id` text,
	`parent_connection_id` text,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`commission_rate` real NOT NULL,
	`offer_all_inventory` integer DEFAULT true NOT NULL,
	`offered_item_ids` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`sandbox` integer DEFAULT false NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `channel_connections_customer_idx` ON `channel_connections` (`customer_id`);--> statement-breakpoint
CREATE INDEX `channel_connections_channel_idx` ON `channel_connections` (`channel_id`,`customer_id`);--> statement-breakpoint
CREATE INDEX `channel_connections_parent_idx` ON `channel_connections` (`parent_connection_id`);--> statement-breakpoint
CREATE TABLE `channel_idempotency` (
	`id` text PRIMARY KEY NOT NULL,
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` text NOT NULL,
	`booking_id` text,
	`response_body` text,
	`claimed_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channel_idempotency_scope_key_uq` ON `channel_idempotency` (`scope`,`key`);--> statement-breakpoint
CREATE INDEX `channel_idempotency_expiry_idx` ON `channel_idempotency` (`expires_at`);--> statement-breakpoint
CREATE TABLE `channel_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`key_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`mode` text NOT NULL,
	`channel_id` text,
	`connection_id` text,
	`revoked_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channel_keys_hash_uq` ON `channel_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `channel_keys_owner_idx` ON `channel_keys` (`channel_id`,`connection_id`);--> statement-breakpoint
CREATE TABLE `channels` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`contact_email` text NOT NULL,
	`portal_token_hash` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`webhook_url` text,
	`webhook_events` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channels_slug_uq` ON `channels` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `channels_portal_token_uq` ON `channels` (`portal_token_hash`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `channel_idempotency_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_channel_idem_uq` ON `bookings` (`channel_idempotency_key`);