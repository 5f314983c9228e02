CREATE TABLE `octo_bookings` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`connection_id` text NOT NULL,
	`scope` text NOT NULL,
	`uuid` text NOT NULL,
	`test_mode` integer DEFAULT false NOT NULL,
	`status` text NOT NULL,
	`product_id` text NOT NULL,
	`option_id` text NOT NULL,
	`availability_id` text NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`local_date` text NOT NULL,
	`unit_items` text NOT NULL,
	`contact` text,
	`notes` text,
	`reseller_reference` text,
	`transaction_id` text NOT NULL,
	`rental_id` text,
	`quote` text NOT NULL,
	`commission_rate` real,
	`expires_at` integer,
	`confirmed_at` text,
	`cancelled_at` text,
	`cancellation_reason` text,
	`cancellation_refund` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `octo_bookings_scope_uuid_uq` ON `octo_bookings` (`scope`,`uuid`);--> statement-breakpoint
CREATE INDEX `octo_bookings_scope_ref_idx` ON `octo_bookings` (`scope`,`reseller_reference`);--> statement-breakpoint
CREATE INDEX `octo_bookings_scope_date_idx` ON `octo_bookings` (`scope`,`local_date`);--> statement-breakpoint
CREATE INDEX `octo_bookings_transaction_idx` ON `octo_bookings` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `octo_bookings_hold_idx` ON `octo_bookings` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `octo_settings` (
	`customer_id` text PRIMARY KEY NOT NULL,
	`cancellation_cutoff_hours` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
