CREATE TABLE `acct_exports` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`date` text NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`lines` text NOT NULL,
	`total_debit` integer DEFAULT 0 NOT NULL,
	`total_credit` integer DEFAULT 0 NOT NULL,
	`entry_count` integer DEFAULT 0 NOT NULL,
	`external_id` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`sent_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `acct_exports_location_date_uq` ON `acct_exports` (`customer_id`,`location_id`,`date`);--> statement-breakpoint
CREATE INDEX `acct_exports_status_idx` ON `acct_exports` (`customer_id`,`status`);--> statement-breakpoint
CREATE TABLE `acct_links` (
	`customer_id` text PRIMARY KEY NOT NULL,
	`provider` text,
	`status` text DEFAULT 'disconnected' NOT NULL,
	`access_token` text,
	`refresh_token` text,
	`token_expires_at` integer,
	`acct_business_id` text,
	`acct_business_name` text,
	`bank_account_id` text,
	`gl_mappings` text NOT NULL,
	`connected_at` text,
	`last_error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `calendar_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`status` text DEFAULT 'connected' NOT NULL,
	`account_email` text,
	`access_token` text NOT NULL,
	`refresh_token` text,
	`token_expires_at` integer NOT NULL,
	`calendar_id` text DEFAULT 'primary' NOT NULL,
	`calendar_name` text,
	`sync_token` text,
	`last_sync_at` text,
	`last_full_sync_at` text,
	`last_error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_connections_user_uq` ON `calendar_connections` (`user_id`);--> statement-breakpoint
CREATE INDEX `calendar_connections_customer_idx` ON `calendar_connections` (`customer_id`);--> statement-breakpoint
CREATE TABLE `calendar_event_links` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`connection_id` text NOT NULL,
	`rental_id` text NOT NULL,
	`event_id` text NOT NULL,
	`sequence` integer DEFAULT 0 NOT NULL,
	`fingerprint` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_event_links_conn_rental_uq` ON `calendar_event_links` (`connection_id`,`rental_id`);--> statement-breakpoint
CREATE INDEX `calendar_event_links_customer_idx` ON `calendar_event_links` (`customer_id`);--> statement-breakpoint
CREATE TABLE `calendar_event_versions` (
	`customer_id` text NOT NULL,
	`rental_id` text NOT NULL,
	`sequence` integer DEFAULT 0 NOT NULL,
	`fingerprint` text NOT NULL,
	`changed_at` text NOT NULL,
	PRIMARY KEY(`customer_id`, `rental_id`)
);
--> statement-breakpoint
CREATE TABLE `calendar_feeds` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`user_id` text,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_prefix` text NOT NULL,
	`created_by` text,
	`revoked_at` text,
	`last_fetched_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_token_uq` ON `calendar_feeds` (`token_hash`);--> statement-breakpoint
CREATE INDEX `calendar_feeds_customer_idx` ON `calendar_feeds` (`customer_id`);--> statement-breakpoint
CREATE TABLE `fleetsys_links` (
	`customer_id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`client_secret` text NOT NULL,
	`token_url` text NOT NULL,
	`api_base_url` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`access_token` text,
	`token_expires_at` integer,
	`product_mappings` text NOT NULL,
	`last_tested_at` text,
	`last_error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `fleetsys_syncs` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`rental_id` text NOT NULL,
	`asset_key` text NOT NULL,
	`external_booking_id` text NOT NULL,
	`product_id` text NOT NULL,
	`reservation_id` text,
	`invoice_id` text,
	`status` text NOT NULL,
	`claimed_until` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fleetsys_syncs_rental_asset_uq` ON `fleetsys_syncs` (`customer_id`,`rental_id`,`asset_key`);--> statement-breakpoint
CREATE TABLE `gps_alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`device_id` text NOT NULL,
	`device_name` text NOT NULL,
	`type` text NOT NULL,
	`geofence_id` text,
	`rental_id` text,
	`lat` real,
	`lng` real,
	`accuracy_meters` real,
	`message` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`details` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gps_alerts_dedupe_uq` ON `gps_alerts` (`customer_id`,`dedupe_key`);--> statement-breakpoint
CREATE INDEX `gps_alerts_location_idx` ON `gps_alerts` (`customer_id`,`location_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `gps_alerts_device_idx` ON `gps_alerts` (`customer_id`,`device_name`,`created_at`);--> statement-breakpoint
CREATE TABLE `gps_devices` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`device_name` text NOT NULL,
	`inventory_id` text,
	`asset_id` text,
	`key_hash` text NOT NULL,
	`key_prefix` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`last_lat` real,
	`last_lng` real,
	`last_accuracy` real,
	`last_fix_at` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gps_devices_name_uq` ON `gps_devices` (`customer_id`,`device_name`);--> statement-breakpoint
CREATE UNIQUE INDEX `gps_devices_key_uq` ON `gps_devices` (`key_hash`);--> statement-breakpoint
CREATE TABLE `gps_fence_states` (
	`device_id` text NOT NULL,
	`geofence_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`state` text NOT NULL,
	`streak` integer DEFAULT 0 NOT NULL,
	`changed_at` integer NOT NULL,
	PRIMARY KEY(`device_id`, `geofence_id`)
);
--> statement-breakpoint
CREATE TABLE `gps_fixes` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`device_id` text NOT NULL,
	`lat` real NOT NULL,
	`lng` real NOT NULL,
	`accuracy_meters` real,
	`speed_mps` real,
	`heading` real,
	`recorded_at` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `gps_fixes_device_idx` ON `gps_fixes` (`device_id`,`recorded_at`);--> statement-breakpoint
CREATE TABLE `gps_home_areas` (
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`geofence_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`customer_id`, `location_id`)
);
--> statement-breakpoint
CREATE TABLE `gps_settings` (
	`customer_id` text PRIMARY KEY NOT NULL,
	`auto_return` integer DEFAULT false NOT NULL,
	`max_accuracy_meters` real DEFAULT 50 NOT NULL,
	`overdue_grace_minutes` integer DEFAULT 15 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `marketplace_configs` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`supplier_id` text NOT NULL,
	`api_key_hash` text NOT NULL,
	`api_key_last4` text NOT NULL,
	`outbound_api_key` text,
	`currency` text DEFAULT 'usd' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `marketplace_configs_customer_uq` ON `marketplace_configs` (`customer_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `marketplace_configs_key_uq` ON `marketplace_configs` (`api_key_hash`);--> statement-breakpoint
CREATE TABLE `marketplace_notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `marketplace_notifications_customer_idx` ON `marketplace_notifications` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `marketplace_reservations` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`config_id` text NOT NULL,
	`item_id` text NOT NULL,
	`product_option_id` text NOT NULL,
	`travel_date` text NOT NULL,
	`start_time` text NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`total_travelers` integer NOT NULL,
	`tickets` text,
	`price_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`expires_at` integer NOT NULL,
	`booking_ref` text,
	`rental_id` text,
	`transaction_id` text,
	`traveler` text,
	`amendments` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `marketplace_reservations_ref_uq` ON `marketplace_reservations` (`customer_id`,`booking_ref`);--> statement-breakpoint
CREATE INDEX `marketplace_reservations_status_idx` ON `marketplace_reservations` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `marketplace_reservations_rental_idx` ON `marketplace_reservations` (`customer_id`,`rental_id`);--> statement-breakpoint
CREATE TABLE `voice_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`call_sid` text NOT NULL,
	`from_number` text,
	`to_number` text,
	`renter_id` text,
	`rental_id` text,
	`last_key` text,
	`status` text DEFAULT 'in_progress' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `voice_calls_sid_uq` ON `voice_calls` (`call_sid`);--> statement-breakpoint
CREATE INDEX `voice_calls_location_idx` ON `voice_calls` (`customer_id`,`location_id`);--> statement-breakpoint
CREATE TABLE `voicemails` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`call_sid` text NOT NULL,
	`recording_sid` text,
	`recording_url` text,
	`duration_seconds` integer,
	`from_number` text,
	`renter_id` text,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `voicemails_call_uq` ON `voicemails` (`call_sid`);--> statement-breakpoint
CREATE INDEX `voicemails_location_idx` ON `voicemails` (`customer_id`,`location_id`,`created_at`);