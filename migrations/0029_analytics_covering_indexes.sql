DROP INDEX `ledger_location_date_idx`;--> statement-breakpoint
CREATE INDEX `ledger_location_date_idx` ON `ledger_entries` (`location_id`,`occurred_at`,`entry_type`,`amount`,`rental_id`,`source`,`deleted_at`,`customer_id`,`item_id`,`asset_id`);--> statement-breakpoint
DROP INDEX `widget_events_customer_idx`;--> statement-breakpoint
CREATE INDEX `widget_events_customer_idx` ON `widget_events` (`customer_id`,`created_at`,`location_id`,`event`,`session_id`,`inventory_id`,`source`,`ref`);