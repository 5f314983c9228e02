CREATE TABLE `test_clocks` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`operator_id` text NOT NULL,
	`name` text,
	`status` text DEFAULT 'ready' NOT NULL,
	`frozen_time` text NOT NULL,
	`target_time` text,
	`failure` text,
	`progress` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `test_clocks_operator_uq` ON `test_clocks` (`operator_id`);--> statement-breakpoint
CREATE INDEX `test_clocks_customer_idx` ON `test_clocks` (`customer_id`,`created_at`);