CREATE TABLE `waiver_link_visits` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`first_name` text,
	`last_name` text,
	`email` text,
	`ip_address` text,
	`user_agent` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `waiver_link_visits_location_idx` ON `waiver_link_visits` (`customer_id`,`location_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `waiver_numbers` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`waiver_number` text NOT NULL,
	`pin` text,
	`pin_expires_at` text NOT NULL,
	`location_id` text,
	`first_name` text,
	`last_name` text,
	`email` text,
	`phone` text,
	`dob` text,
	`address` text,
	`assign_to` text,
	`asset_id` text,
	`transaction_id` text,
	`renter_id` text,
	`template_id` text,
	`raw_data` text,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`waiver_url` text,
	`signature_id` text,
	`completion_data` text,
	`completed_at` text,
	`deleted_at` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `waiver_numbers_number_uq` ON `waiver_numbers` (`customer_id`,`waiver_number`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `waiver_numbers_pin_uq` ON `waiver_numbers` (`pin`);--> statement-breakpoint
CREATE INDEX `waiver_numbers_txn_idx` ON `waiver_numbers` (`customer_id`,`transaction_id`);--> statement-breakpoint
CREATE INDEX `waiver_numbers_location_idx` ON `waiver_numbers` (`customer_id`,`location_id`,`status`);--> statement-breakpoint
CREATE TABLE `waiver_signatures` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`template_id` text NOT NULL,
	`template` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`dob` text,
	`email` text,
	`phone` text,
	`address_line` text,
	`ip_address` text,
	`observed_ip` text,
	`user_agent` text,
	`assign_to` text,
	`waiver_number` text,
	`waiver_number_id` text,
	`transaction_id` text,
	`tid` text,
	`booking_data` text,
	`form_data` text NOT NULL,
	`images` text NOT NULL,
	`renter_id` text,
	`pdf_key` text NOT NULL,
	`pdf_size` integer NOT NULL,
	`pdf_sha256` text NOT NULL,
	`content_hash` text NOT NULL,
	`signed_at` text NOT NULL,
	`bookings_updated` integer DEFAULT 0 NOT NULL,
	`waiver_number_completed` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `waiver_signatures_txn_idx` ON `waiver_signatures` (`customer_id`,`transaction_id`);--> statement-breakpoint
CREATE INDEX `waiver_signatures_template_idx` ON `waiver_signatures` (`customer_id`,`template_id`);--> statement-breakpoint
CREATE INDEX `waiver_signatures_wn_idx` ON `waiver_signatures` (`customer_id`,`waiver_number_id`);--> statement-breakpoint
CREATE TABLE `waiver_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`sections` text NOT NULL,
	`assign_to` text NOT NULL,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `waiver_templates_location_idx` ON `waiver_templates` (`customer_id`,`location_id`);