CREATE TABLE `booking_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`rental_id` text NOT NULL,
	`kind` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`r2_key` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `booking_documents_rental_idx` ON `booking_documents` (`customer_id`,`rental_id`);--> statement-breakpoint
CREATE TABLE `booking_participants` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`rental_id` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email` text,
	`dob` text,
	`waiver_signature_id` text,
	`waiver_signed_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `booking_participants_rental_idx` ON `booking_participants` (`customer_id`,`rental_id`);--> statement-breakpoint
CREATE TABLE `booking_tips` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`rental_id` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`payment_intent_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `booking_tips_rental_uq` ON `booking_tips` (`rental_id`);--> statement-breakpoint
CREATE TABLE `renter_otps` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`rental_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`email` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`verified_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `renter_otps_rental_idx` ON `renter_otps` (`rental_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `renter_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`customer_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`rental_id` text,
	`origin` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `renter_sessions_token_uq` ON `renter_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `renter_sessions_txn_idx` ON `renter_sessions` (`customer_id`,`transaction_id`);--> statement-breakpoint
CREATE TABLE `review_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`rental_id` text NOT NULL,
	`email` text NOT NULL,
	`connections` text NOT NULL,
	`message_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_requests_rental_uq` ON `review_requests` (`rental_id`);--> statement-breakpoint
CREATE TABLE `widget_events` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text,
	`inventory_id` text,
	`session_id` text NOT NULL,
	`event` text NOT NULL,
	`date` text,
	`time` text,
	`rental_id` text,
	`ref` text,
	`source` text,
	`details` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `widget_events_customer_idx` ON `widget_events` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `widget_events_session_idx` ON `widget_events` (`session_id`);