CREATE TABLE `sim_checkout_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`mode` text NOT NULL,
	`plan` text NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`status` text NOT NULL,
	`url` text NOT NULL,
	`subscription_id` text,
	`metadata` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `slip_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`settings` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `slip_settings_location_uq` ON `slip_settings` (`customer_id`,`location_id`);--> statement-breakpoint
CREATE TABLE `slip_subscriptions` (
	`customer_id` text PRIMARY KEY NOT NULL,
	`status` text DEFAULT 'none' NOT NULL,
	`provider_subscription_id` text,
	`checkout_session_id` text,
	`quota` integer DEFAULT 0 NOT NULL,
	`billed_quantity` integer DEFAULT 0 NOT NULL,
	`unit_amount_cents` integer DEFAULT 1000 NOT NULL,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`current_period_end` text,
	`last_synced_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `slips` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`unit_number` text NOT NULL,
	`name` text,
	`section` text,
	`unit_type` text DEFAULT 'slip' NOT NULL,
	`length_ft` real,
	`max_loa_ft` real,
	`width_ft` real,
	`depth_ft` real,
	`overhead_clearance_ft` real,
	`power` text,
	`water` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'available' NOT NULL,
	`rates` text,
	`amenities` text NOT NULL,
	`notes` text,
	`map_id` text,
	`map_x` real,
	`map_y` real,
	`map_rotation` real,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `slips_unit_uq` ON `slips` (`customer_id`,`location_id`,`unit_number`);--> statement-breakpoint
CREATE INDEX `slips_location_idx` ON `slips` (`customer_id`,`location_id`,`status`);--> statement-breakpoint
CREATE INDEX `slips_map_idx` ON `slips` (`customer_id`,`map_id`);--> statement-breakpoint
CREATE TABLE `marina_maps` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`image_url` text,
	`image_width` integer,
	`image_height` integer,
	`display_order` integer DEFAULT 0 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `marina_maps_location_idx` ON `marina_maps` (`customer_id`,`location_id`,`display_order`);--> statement-breakpoint
CREATE TABLE `slip_payments` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`reservation_id` text NOT NULL,
	`kind` text NOT NULL,
	`method` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`refunded_cents` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`payment_intent_id` text,
	`provider_refund_id` text,
	`payment_id` text,
	`reference` text,
	`note` text,
	`card_brand` text,
	`card_last4` text,
	`recorded_by` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `slip_payments_reservation_idx` ON `slip_payments` (`customer_id`,`reservation_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `slip_payments_intent_uq` ON `slip_payments` (`payment_intent_id`);--> statement-breakpoint
CREATE TABLE `slip_reservation_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`reservation_id` text NOT NULL,
	`version` integer NOT NULL,
	`action` text NOT NULL,
	`details` text,
	`actor_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `slip_changes_reservation_idx` ON `slip_reservation_changes` (`customer_id`,`reservation_id`,`version`);--> statement-breakpoint
CREATE TABLE `slip_reservation_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`reservation_id` text NOT NULL,
	`direction` text NOT NULL,
	`channel` text NOT NULL,
	`subject` text,
	`body` text NOT NULL,
	`sent_to` text,
	`sender_id` text,
	`outbox_message_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `slip_messages_reservation_idx` ON `slip_reservation_messages` (`customer_id`,`reservation_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `slip_reservations` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`reservation_number` text NOT NULL,
	`slip_id` text NOT NULL,
	`renter_id` text NOT NULL,
	`renter` text NOT NULL,
	`status` text NOT NULL,
	`rate_type` text NOT NULL,
	`arrival_date` text NOT NULL,
	`departure_date` text NOT NULL,
	`boat` text NOT NULL,
	`pricing` text NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`base_cents` integer DEFAULT 0 NOT NULL,
	`fees_cents` integer DEFAULT 0 NOT NULL,
	`utilities_cents` integer DEFAULT 0 NOT NULL,
	`discount_cents` integer DEFAULT 0 NOT NULL,
	`tax_cents` integer DEFAULT 0 NOT NULL,
	`total_cents` integer DEFAULT 0 NOT NULL,
	`deposit_cents` integer DEFAULT 0 NOT NULL,
	`amount_paid_cents` integer DEFAULT 0 NOT NULL,
	`amount_refunded_cents` integer DEFAULT 0 NOT NULL,
	`posted_charges` text,
	`recognized_through` text,
	`hold_expires_at` integer,
	`bill_sent_at` text,
	`confirmed_at` text,
	`checked_in_at` text,
	`checked_out_at` text,
	`cancelled_at` text,
	`cancellation_reason` text,
	`expired_at` text,
	`contract_status` text DEFAULT 'none' NOT NULL,
	`contract_id` text,
	`contract_signed_at` text,
	`notes` text,
	`source` text DEFAULT 'staff' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `slip_reservations_number_uq` ON `slip_reservations` (`customer_id`,`reservation_number`);--> statement-breakpoint
CREATE INDEX `slip_reservations_slip_idx` ON `slip_reservations` (`slip_id`,`arrival_date`);--> statement-breakpoint
CREATE INDEX `slip_reservations_location_idx` ON `slip_reservations` (`customer_id`,`location_id`,`status`,`arrival_date`);--> statement-breakpoint
CREATE INDEX `slip_reservations_renter_idx` ON `slip_reservations` (`customer_id`,`renter_id`);--> statement-breakpoint
CREATE INDEX `slip_reservations_hold_idx` ON `slip_reservations` (`status`,`hold_expires_at`);--> statement-breakpoint
CREATE TABLE `slip_contract_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text,
	`name` text NOT NULL,
	`description` text,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`rate_types` text NOT NULL,
	`defaults` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `slip_contract_templates_idx` ON `slip_contract_templates` (`customer_id`,`location_id`);--> statement-breakpoint
CREATE TABLE `slip_contracts` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`reservation_id` text NOT NULL,
	`template_id` text,
	`status` text NOT NULL,
	`title` text NOT NULL,
	`rendered_body` text NOT NULL,
	`variables` text NOT NULL,
	`pdf_key` text NOT NULL,
	`document_sha256` text NOT NULL,
	`signed_pdf_key` text,
	`sign_token_hash` text,
	`sign_token_expires_at` text,
	`sent_at` text,
	`sent_to` text,
	`send_count` integer DEFAULT 0 NOT NULL,
	`signed_at` text,
	`signer_name` text,
	`signer_email` text,
	`signature_type` text,
	`signature` text,
	`signer_ip` text,
	`signer_user_agent` text,
	`signed_via` text,
	`voided_at` text,
	`void_reason` text,
	`pdf_regenerated_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `slip_contracts_reservation_idx` ON `slip_contracts` (`customer_id`,`reservation_id`);--> statement-breakpoint
CREATE INDEX `slip_contracts_status_idx` ON `slip_contracts` (`customer_id`,`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `sim_subscriptions` ADD `quantity` integer DEFAULT 1 NOT NULL;