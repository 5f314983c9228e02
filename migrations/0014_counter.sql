CREATE TABLE `affiliates` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`percentage_earned` real DEFAULT 0 NOT NULL,
	`custom_affiliate_id` text,
	`paid_out` integer DEFAULT 0 NOT NULL,
	`commission_total` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `affiliates_customer_idx` ON `affiliates` (`customer_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `affiliates_custom_id_uq` ON `affiliates` (`customer_id`,`custom_affiliate_id`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` text NOT NULL,
	`effect_committed` integer DEFAULT false NOT NULL,
	`response_status` integer,
	`response_type` text,
	`response_body` text,
	`claimed_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `idempotency_keys_scope_key_uq` ON `idempotency_keys` (`scope`,`key`);--> statement-breakpoint
CREATE INDEX `idempotency_keys_expiry_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `sim_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text DEFAULT 'express' NOT NULL,
	`country` text NOT NULL,
	`email` text,
	`region` text DEFAULT 'US' NOT NULL,
	`details_submitted` integer DEFAULT false NOT NULL,
	`metadata` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `gift_card_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`promo_code_id` text NOT NULL,
	`kind` text NOT NULL,
	`amount` integer NOT NULL,
	`use_id` text,
	`reference` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `gift_card_entries_card_idx` ON `gift_card_entries` (`promo_code_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `gift_card_purchases` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`payment_intent_id` text NOT NULL,
	`code` text NOT NULL,
	`gift_card_amount` integer NOT NULL,
	`amount` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`recipient_name` text,
	`recipient_email` text,
	`message` text,
	`expiry_date` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`promo_code_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gift_card_purchases_intent_uq` ON `gift_card_purchases` (`payment_intent_id`);--> statement-breakpoint
CREATE INDEX `gift_card_purchases_customer_idx` ON `gift_card_purchases` (`customer_id`);--> statement-breakpoint
CREATE TABLE `promo_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`code` text NOT NULL,
	`code_key` text NOT NULL,
	`kind` text NOT NULL,
	`details` text NOT NULL,
	`percent_off` real,
	`amount_off` integer,
	`expiry_date` text,
	`inventory_ids` text NOT NULL,
	`location_id` text,
	`affiliate_id` text,
	`usage_limit` integer,
	`times_used` integer DEFAULT 0 NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`recipient_name` text,
	`recipient_email` text,
	`message` text,
	`payment_intent_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "promo_codes_usage_limit" CHECK("promo_codes"."times_used" >= 0 AND ("promo_codes"."usage_limit" IS NULL OR "promo_codes"."times_used" <= "promo_codes"."usage_limit")),
	CONSTRAINT "promo_codes_balance_nonnegative" CHECK("promo_codes"."balance" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promo_codes_customer_code_uq` ON `promo_codes` (`customer_id`,`code_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `promo_codes_payment_intent_uq` ON `promo_codes` (`payment_intent_id`);--> statement-breakpoint
CREATE INDEX `promo_codes_code_idx` ON `promo_codes` (`code_key`);--> statement-breakpoint
CREATE INDEX `promo_codes_affiliate_idx` ON `promo_codes` (`customer_id`,`affiliate_id`);--> statement-breakpoint
CREATE TABLE `promo_uses` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`promo_code_id` text NOT NULL,
	`code` text NOT NULL,
	`kind` text NOT NULL,
	`source` text NOT NULL,
	`order_amount` integer NOT NULL,
	`discount` integer NOT NULL,
	`user_id` text,
	`affiliate_id` text,
	`commission_rate` real,
	`commission` integer DEFAULT 0 NOT NULL,
	`transaction_id` text,
	`rental_ids` text NOT NULL,
	`open_rentals` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`released_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `promo_uses_code_idx` ON `promo_uses` (`promo_code_id`);--> statement-breakpoint
CREATE INDEX `promo_uses_affiliate_idx` ON `promo_uses` (`customer_id`,`affiliate_id`);--> statement-breakpoint
CREATE INDEX `promo_uses_transaction_idx` ON `promo_uses` (`customer_id`,`transaction_id`);--> statement-breakpoint
CREATE TABLE `pos_connected_accounts` (
	`account_id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`region` text NOT NULL,
	`country` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pos_connected_accounts_customer_idx` ON `pos_connected_accounts` (`customer_id`);--> statement-breakpoint
CREATE TABLE `pos_folder_items` (
	`folder_id` text NOT NULL,
	`item_id` text NOT NULL,
	`customer_id` text NOT NULL,
	PRIMARY KEY(`folder_id`, `item_id`)
);
--> statement-breakpoint
CREATE INDEX `pos_folder_items_item_idx` ON `pos_folder_items` (`item_id`);--> statement-breakpoint
CREATE TABLE `pos_folders` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`till_id` text,
	`name` text NOT NULL,
	`color` text,
	`favorite` integer DEFAULT false NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pos_folders_location_idx` ON `pos_folders` (`customer_id`,`location_id`,`position`);--> statement-breakpoint
CREATE TABLE `pos_items` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`name` text NOT NULL,
	`category` text,
	`tax_rate` real DEFAULT 0 NOT NULL,
	`image` text,
	`tags` text NOT NULL,
	`allow_negative_stock` integer DEFAULT false NOT NULL,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pos_items_location_idx` ON `pos_items` (`customer_id`,`location_id`);--> statement-breakpoint
CREATE TABLE `pos_refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`location_id` text NOT NULL,
	`till_id` text,
	`refund_type` text NOT NULL,
	`method` text NOT NULL,
	`amount` integer NOT NULL,
	`provider_refund_id` text,
	`restocked` text NOT NULL,
	`reason` text,
	`settlement_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pos_refunds_transaction_idx` ON `pos_refunds` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `pos_refunds_location_idx` ON `pos_refunds` (`customer_id`,`location_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `pos_settlements` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`drawer_id` text DEFAULT '' NOT NULL,
	`number` integer NOT NULL,
	`range_start` text NOT NULL,
	`range_end` text NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`opening_float` integer NOT NULL,
	`cash_sales` integer NOT NULL,
	`paid_in` integer NOT NULL,
	`paid_out` integer NOT NULL,
	`cash_refunds` integer NOT NULL,
	`expected_cash` integer NOT NULL,
	`counted_cash` integer,
	`difference` integer,
	`client_expected_cash` integer,
	`client_difference` integer,
	`cash_breakdown` text,
	`totals` text NOT NULL,
	`transaction_count` integer NOT NULL,
	`user_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pos_settlements_number_uq` ON `pos_settlements` (`customer_id`,`location_id`,`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `pos_settlements_range_uq` ON `pos_settlements` (`customer_id`,`location_id`,`drawer_id`,`range_start`,`range_end`);--> statement-breakpoint
CREATE INDEX `pos_settlements_drawer_idx` ON `pos_settlements` (`customer_id`,`location_id`,`drawer_id`,`range_end`);--> statement-breakpoint
CREATE TABLE `pos_stock` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`item_id` text NOT NULL,
	`variant_id` text NOT NULL,
	`till_id` text DEFAULT '' NOT NULL,
	`quantity` integer DEFAULT 0 NOT NULL,
	`allow_negative` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "pos_stock_nonnegative" CHECK("pos_stock"."quantity" >= 0 OR "pos_stock"."allow_negative" = 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pos_stock_variant_till_uq` ON `pos_stock` (`variant_id`,`till_id`);--> statement-breakpoint
CREATE INDEX `pos_stock_item_idx` ON `pos_stock` (`item_id`);--> statement-breakpoint
CREATE TABLE `pos_transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`till_id` text,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`payment_type` text NOT NULL,
	`account_id` text,
	`rental_id` text,
	`settle_booking` integer DEFAULT false NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`lines` text NOT NULL,
	`subtotal` integer DEFAULT 0 NOT NULL,
	`discount_total` integer DEFAULT 0 NOT NULL,
	`tax_total` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`refunded_amount` integer DEFAULT 0 NOT NULL,
	`discount_percentage` real,
	`discount_amount` integer,
	`payment_intent_id` text,
	`note` text,
	`settled` integer DEFAULT false NOT NULL,
	`settled_at` text,
	`settlement_id` text,
	`created_at` text NOT NULL,
	CONSTRAINT "pos_transactions_refund_cap" CHECK("pos_transactions"."refunded_amount" >= 0 AND "pos_transactions"."refunded_amount" <= "pos_transactions"."total")
);
--> statement-breakpoint
CREATE INDEX `pos_transactions_location_idx` ON `pos_transactions` (`customer_id`,`location_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `pos_transactions_till_idx` ON `pos_transactions` (`customer_id`,`till_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `pos_transactions_rental_idx` ON `pos_transactions` (`customer_id`,`rental_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `pos_transactions_intent_uq` ON `pos_transactions` (`payment_intent_id`);--> statement-breakpoint
CREATE TABLE `pos_variants` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`item_id` text NOT NULL,
	`name` text NOT NULL,
	`sku` text,
	`price` integer NOT NULL,
	`unit` text,
	`position` integer DEFAULT 0 NOT NULL,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pos_variants_item_idx` ON `pos_variants` (`item_id`);--> statement-breakpoint
CREATE TABLE `protection_purchases` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`rental_id` text NOT NULL,
	`plan_code` text NOT NULL,
	`plan_name` text NOT NULL,
	`status` text NOT NULL,
	`premium` integer NOT NULL,
	`booking_total` integer NOT NULL,
	`percentage` real NOT NULL,
	`minimum` integer NOT NULL,
	`max_cap` integer,
	`currency` text DEFAULT 'usd' NOT NULL,
	`payment_intent_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `protection_purchases_rental_plan_uq` ON `protection_purchases` (`rental_id`,`plan_code`);--> statement-breakpoint
CREATE INDEX `protection_purchases_customer_idx` ON `protection_purchases` (`customer_id`);--> statement-breakpoint
CREATE TABLE `protection_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`industry` text DEFAULT 'marine' NOT NULL,
	`enabled_plan_codes` text NOT NULL,
	`enabled_bundle_codes` text NOT NULL,
	`plan_overrides` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `protection_settings_location_uq` ON `protection_settings` (`customer_id`,`location_id`);--> statement-breakpoint
ALTER TABLE `sim_payment_intents` ADD `application_fee_amount` integer;--> statement-breakpoint
ALTER TABLE `sim_payment_intents` ADD `transfer_destination` text;