CREATE TABLE `booking_events` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`transaction_id` text,
	`rental_id` text,
	`event_type` text,
	`event_change` text,
	`event_label` text,
	`content` text,
	`details` text,
	`actor_name` text,
	`actor_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `booking_events_txn_idx` ON `booking_events` (`customer_id`,`transaction_id`);--> statement-breakpoint
CREATE INDEX `booking_events_rental_idx` ON `booking_events` (`customer_id`,`rental_id`);--> statement-breakpoint
CREATE TABLE `bookings` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`bundle_group_id` text,
	`location_id` text NOT NULL,
	`item_id` text NOT NULL,
	`renter_id` text,
	`status` text NOT NULL,
	`source` text DEFAULT 'operator' NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`local_date` text NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`participants` integer,
	`asset_ids` text NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`subtotal` integer DEFAULT 0 NOT NULL,
	`discount_total` integer DEFAULT 0 NOT NULL,
	`tax_total` integer DEFAULT 0 NOT NULL,
	`tip_total` integer DEFAULT 0 NOT NULL,
	`fee_total` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`amount_paid` integer DEFAULT 0 NOT NULL,
	`pricing` text,
	`customer_info` text,
	`rental_details` text,
	`extended_data` text,
	`addons` text,
	`payment_plan` text,
	`payment_intent_id` text,
	`deposit_information` text,
	`promo_code` text,
	`channel_connection_id` text,
	`channel_reference` text,
	`commission_rate` real,
	`test_mode` integer DEFAULT false NOT NULL,
	`checked_in_at` text,
	`checked_out_at` text,
	`cancelled_at` text,
	`cancellation_reason` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bookings_item_start_idx` ON `bookings` (`item_id`,`start`);--> statement-breakpoint
CREATE INDEX `bookings_customer_date_idx` ON `bookings` (`customer_id`,`local_date`);--> statement-breakpoint
CREATE INDEX `bookings_customer_status_idx` ON `bookings` (`customer_id`,`status`,`start`);--> statement-breakpoint
CREATE INDEX `bookings_location_idx` ON `bookings` (`location_id`,`start`);--> statement-breakpoint
CREATE INDEX `bookings_transaction_idx` ON `bookings` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `bookings_bundle_idx` ON `bookings` (`bundle_group_id`);--> statement-breakpoint
CREATE INDEX `bookings_renter_idx` ON `bookings` (`renter_id`);--> statement-breakpoint
CREATE INDEX `bookings_channel_idx` ON `bookings` (`channel_connection_id`,`channel_reference`);--> statement-breakpoint
CREATE TABLE `deposits` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`rental_id` text NOT NULL,
	`location_id` text,
	`payment_intent_id` text NOT NULL,
	`method` text NOT NULL,
	`reader_id` text,
	`status` text NOT NULL,
	`amount` integer NOT NULL,
	`captured_amount` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`notes` text,
	`claim_type` text,
	`released_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deposits_intent_uq` ON `deposits` (`payment_intent_id`);--> statement-breakpoint
CREATE INDEX `deposits_rental_idx` ON `deposits` (`customer_id`,`rental_id`);--> statement-breakpoint
CREATE TABLE `drydocks` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`item_id` text NOT NULL,
	`asset_ids` text NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`notes` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `drydocks_item_idx` ON `drydocks` (`customer_id`,`item_id`,`start`);--> statement-breakpoint
CREATE TABLE `holds` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`email` text NOT NULL,
	`inventory_id` text NOT NULL,
	`location_id` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `holds_item_idx` ON `holds` (`inventory_id`,`status`);--> statement-breakpoint
CREATE INDEX `holds_expiry_idx` ON `holds` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text,
	`renter_id` text,
	`transaction_id` text,
	`rental_id` text,
	`item_id` text,
	`asset_id` text,
	`entry_type` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`affects_balance` integer DEFAULT true NOT NULL,
	`occurred_at` text NOT NULL,
	`description` text,
	`source` text,
	`reference` text,
	`metadata` text,
	`deleted_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ledger_customer_date_idx` ON `ledger_entries` (`customer_id`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `ledger_renter_idx` ON `ledger_entries` (`customer_id`,`renter_id`);--> statement-breakpoint
CREATE INDEX `ledger_rental_idx` ON `ledger_entries` (`rental_id`);--> statement-breakpoint
CREATE INDEX `ledger_location_date_idx` ON `ledger_entries` (`location_id`,`occurred_at`);--> statement-breakpoint
CREATE TABLE `renters` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`address` text,
	`dob` text,
	`license_number` text,
	`waivers_signed_urls` text NOT NULL,
	`id_verifications` text NOT NULL,
	`transactions` text NOT NULL,
	`additional_info` text NOT NULL,
	`payment_customer_id` text,
	`status` text DEFAULT 'active' NOT NULL,
	`risk_score` real,
	`notes` text NOT NULL,
	`loyalty_points` integer DEFAULT 0 NOT NULL,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `renters_customer_email_uq` ON `renters` (`customer_id`,`email`);--> statement-breakpoint
CREATE INDEX `renters_customer_name_idx` ON `renters` (`customer_id`,`last_name`,`first_name`);--> statement-breakpoint
CREATE TABLE `allocations` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`item_id` text NOT NULL,
	`asset_id` text,
	`kind` text NOT NULL,
	`source_id` text NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`blocked_start` integer NOT NULL,
	`blocked_end` integer NOT NULL,
	`seats` integer DEFAULT 1 NOT NULL,
	`capacity` integer,
	`active` integer DEFAULT true NOT NULL,
	`expires_at` integer,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `allocations_item_window_idx` ON `allocations` (`item_id`,`active`,`blocked_start`);--> statement-breakpoint
CREATE INDEX `allocations_asset_window_idx` ON `allocations` (`asset_id`,`active`,`blocked_start`);--> statement-breakpoint
CREATE INDEX `allocations_source_idx` ON `allocations` (`source_id`);--> statement-breakpoint
CREATE TABLE `boat_records` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`inventory_id` text NOT NULL,
	`record_type` text NOT NULL,
	`details` text NOT NULL,
	`rental_id` text,
	`asset_id` text,
	`timestamp` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `boat_records_item_ts_uq` ON `boat_records` (`customer_id`,`inventory_id`,`timestamp`);--> statement-breakpoint
CREATE INDEX `boat_records_type_idx` ON `boat_records` (`inventory_id`,`record_type`);--> statement-breakpoint
CREATE TABLE `inventory_assets` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`item_id` text NOT NULL,
	`name` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`display_order` integer DEFAULT 0 NOT NULL,
	`map_pin` text,
	`details` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `inventory_assets_item_idx` ON `inventory_assets` (`item_id`,`display_order`);--> statement-breakpoint
ALTER TABLE `inventory_items` ADD `is_public` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `inventory_items` ADD `version` integer DEFAULT 1 NOT NULL;