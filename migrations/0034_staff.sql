CREATE TABLE `staff_assignments` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`rental_id` text NOT NULL,
	`staff_id` text NOT NULL,
	`role` text,
	`forced` integer DEFAULT false NOT NULL,
	`method` text DEFAULT 'manual' NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `staff_assignments_rental_staff_uq` ON `staff_assignments` (`rental_id`,`staff_id`);--> statement-breakpoint
CREATE INDEX `staff_assignments_staff_idx` ON `staff_assignments` (`customer_id`,`staff_id`);--> statement-breakpoint
CREATE TABLE `staff_time_off` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`staff_id` text NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`reason` text,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `staff_time_off_staff_idx` ON `staff_time_off` (`customer_id`,`staff_id`,`start`);