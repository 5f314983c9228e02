CREATE TABLE `asset_pools` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`asset_ids` text NOT NULL,
	`details` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `asset_pools_customer_idx` ON `asset_pools` (`customer_id`,`location_id`);--> statement-breakpoint
CREATE TABLE `asset_positions` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`item_id` text NOT NULL,
	`location_id` text NOT NULL,
	`lat` real NOT NULL,
	`lng` real NOT NULL,
	`accuracy_meters` real,
	`heading` real,
	`speed_mps` real,
	`recorded_at` text NOT NULL,
	`source` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `asset_positions_asset_uq` ON `asset_positions` (`customer_id`,`asset_id`);--> statement-breakpoint
CREATE INDEX `asset_positions_location_idx` ON `asset_positions` (`customer_id`,`location_id`);--> statement-breakpoint
CREATE TABLE `geofences` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`name` text NOT NULL,
	`shape` text NOT NULL,
	`center_lat` real,
	`center_lng` real,
	`radius_meters` real,
	`points` text,
	`details` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `geofences_customer_location_idx` ON `geofences` (`customer_id`,`location_id`);--> statement-breakpoint
CREATE TABLE `staff_locations` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`user_id` text NOT NULL,
	`location_id` text,
	`lat` real NOT NULL,
	`lng` real NOT NULL,
	`accuracy_meters` real,
	`heading` real,
	`speed_mps` real,
	`recorded_at` text NOT NULL,
	`source` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `staff_locations_user_uq` ON `staff_locations` (`customer_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `staff_locations_location_idx` ON `staff_locations` (`customer_id`,`location_id`);--> statement-breakpoint
CREATE TABLE `partner_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`company` text,
	`password_hash` text,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `partner_accounts_email_uq` ON `partner_accounts` (`email`);--> statement-breakpoint
CREATE TABLE `partner_apps` (
	`id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`name` text NOT NULL,
	`client_type` text NOT NULL,
	`client_secret_hash` text,
	`client_secret_prefix` text,
	`scopes` text NOT NULL,
	`redirect_uris` text NOT NULL,
	`embed_url` text,
	`embed_locations` text NOT NULL,
	`webhook_url` text,
	`webhook_events` text NOT NULL,
	`webhook_secret` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`review_reason` text,
	`submitted_at` text,
	`reviewed_at` text,
	`reviewed_by` text,
	`live` text,
	`version` integer DEFAULT 1 NOT NULL,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `partner_apps_partner_idx` ON `partner_apps` (`partner_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `partner_apps_status_idx` ON `partner_apps` (`status`,`submitted_at`);--> statement-breakpoint
CREATE TABLE `partner_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`kind` text NOT NULL,
	`label` text,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	`last_used_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `partner_tokens_hash_uq` ON `partner_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `partner_tokens_partner_idx` ON `partner_tokens` (`partner_id`);--> statement-breakpoint
CREATE TABLE `app_installations` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`app_id` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`sandbox` integer DEFAULT false NOT NULL,
	`scopes` text NOT NULL,
	`installed_by` text NOT NULL,
	`installed_at` text NOT NULL,
	`uninstalled_at` text,
	`uninstalled_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `app_installations_customer_app_uq` ON `app_installations` (`customer_id`,`app_id`);--> statement-breakpoint
CREATE INDEX `app_installations_app_idx` ON `app_installations` (`app_id`);--> statement-breakpoint
CREATE TABLE `dev_signing_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`private_jwk` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `device_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`device_code_hash` text NOT NULL,
	`user_code` text NOT NULL,
	`client_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`partner_id` text,
	`interval_seconds` integer DEFAULT 5 NOT NULL,
	`last_polled_at` integer,
	`expires_at` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `device_codes_hash_uq` ON `device_codes` (`device_code_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `device_codes_user_code_uq` ON `device_codes` (`user_code`);--> statement-breakpoint
CREATE INDEX `device_codes_expiry_idx` ON `device_codes` (`expires_at`);--> statement-breakpoint
CREATE TABLE `oauth_authorizations` (
	`id` text PRIMARY KEY NOT NULL,
	`app_id` text NOT NULL,
	`redirect_uri` text NOT NULL,
	`scopes` text NOT NULL,
	`state` text,
	`code_challenge` text,
	`browser_hash` text NOT NULL,
	`user_id` text,
	`customer_id` text,
	`sign_in_method` text,
	`idp_verifier` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `oauth_authorizations_expiry_idx` ON `oauth_authorizations` (`expires_at`);--> statement-breakpoint
CREATE TABLE `oauth_grants` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`installation_id` text NOT NULL,
	`app_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`scopes` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`revoked_at` text,
	`revoked_reason` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `oauth_grants_installation_idx` ON `oauth_grants` (`installation_id`,`status`);--> statement-breakpoint
CREATE INDEX `oauth_grants_user_idx` ON `oauth_grants` (`installation_id`,`user_id`,`kind`);--> statement-breakpoint
CREATE TABLE `partner_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`installation_id` text,
	`app_id` text,
	`placed_by` text,
	`from_number` text NOT NULL,
	`to_number` text NOT NULL,
	`message` text,
	`provider_id` text NOT NULL,
	`status` text NOT NULL,
	`duration_seconds` integer,
	`ended_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `partner_calls_customer_idx` ON `partner_calls` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `partner_calls_installation_idx` ON `partner_calls` (`installation_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `channels` ADD `partner_account_id` text;--> statement-breakpoint
CREATE INDEX `channels_partner_idx` ON `channels` (`partner_account_id`);