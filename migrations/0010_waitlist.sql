CREATE TABLE `waitlist_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`inventory_id` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email` text NOT NULL,
	`date` text NOT NULL,
	`time` text,
	`duration` integer,
	`quantity` integer DEFAULT 1 NOT NULL,
	`addons` text,
	`boat_addons` text,
	`gift_card_code` text,
	`ref_affiliate` text,
	`status` text DEFAULT 'waiting' NOT NULL,
	`active_key` text,
	`offer_id` text,
	`offer_start` integer,
	`offer_end` integer,
	`offer_asset_ids` text,
	`offered_at` text,
	`offer_expires_at` text,
	`offer_booking_url` text,
	`booked_at` text,
	`booked_rental_id` text,
	`expired_at` text,
	`cancelled_at` text,
	`closed_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_active_uq` ON `waitlist_entries` (`customer_id`,`active_key`);--> statement-breakpoint
CREATE INDEX `waitlist_queue_idx` ON `waitlist_entries` (`customer_id`,`inventory_id`,`date`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `waitlist_status_expiry_idx` ON `waitlist_entries` (`status`,`offer_expires_at`);--> statement-breakpoint
CREATE INDEX `waitlist_status_date_idx` ON `waitlist_entries` (`status`,`date`);--> statement-breakpoint
CREATE INDEX `waitlist_offer_idx` ON `waitlist_entries` (`offer_id`);--> statement-breakpoint
CREATE TABLE `waitlist_offers` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`entry_id` text NOT NULL,
	`inventory_id` text NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`expires_at` text NOT NULL,
	`trigger` text NOT NULL,
	`trigger_source_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_offers_entry_uq` ON `waitlist_offers` (`entry_id`);--> statement-breakpoint
CREATE INDEX `waitlist_offers_item_idx` ON `waitlist_offers` (`customer_id`,`inventory_id`,`start`);