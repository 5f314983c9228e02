CREATE TABLE `sandbox_operators` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_kind` text NOT NULL,
	`owner_id` text NOT NULL,
	`operator_id` text NOT NULL,
	`name` text NOT NULL,
	`status` text DEFAULT 'seeding' NOT NULL,
	`lease_until` integer,
	`seeded_at` text,
	`resets` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sandbox_operators_owner_uq` ON `sandbox_operators` (`owner_kind`,`owner_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `sandbox_operators_operator_uq` ON `sandbox_operators` (`operator_id`);