DROP INDEX `slips_unit_uq`;--> statement-breakpoint
CREATE UNIQUE INDEX `slips_unit_uq` ON `slips` (`customer_id`,`location_id`,lower("unit_number"));