CREATE TABLE `haul_lift_bookings` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`service_id` text NOT NULL,
	`lift_date` text NOT NULL,
	`kind` text NOT NULL,
	`seq` integer NOT NULL,
	`capacity` integer NOT NULL,
	`created_at` text NOT NULL,
	CONSTRAINT "haul_lift_capacity_check" CHECK("haul_lift_bookings"."seq" <= "haul_lift_bookings"."capacity")
);
--> statement-breakpoint
CREATE INDEX `haul_lift_day_idx` ON `haul_lift_bookings` (`customer_id`,`location_id`,`lift_date`);--> statement-breakpoint
CREATE INDEX `haul_lift_service_idx` ON `haul_lift_bookings` (`service_id`);--> statement-breakpoint
CREATE TABLE `haul_services` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`service_number` text NOT NULL,
	`reservation_id` text,
	`slip_id` text,
	`renter_id` text NOT NULL,
	`renter` text NOT NULL,
	`service_type` text NOT NULL,
	`boat` text NOT NULL,
	`status` text NOT NULL,
	`requested_date` text NOT NULL,
	`requested_return_date` text,
	`scheduled_date` text,
	`scheduled_time` text,
	`return_date` text,
	`destination` text,
	`pricing` text,
	`photos` text NOT NULL,
	`notes` text,
	`staff_notes` text,
	`requested_via` text DEFAULT 'staff' NOT NULL,
	`scheduled_at` text,
	`confirmed_at` text,
	`confirmed_by` text,
	`started_at` text,
	`completed_at` text,
	`cancelled_at` text,
	`cancel_reason` text,
	`charged_cents` integer,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `haul_services_location_idx` ON `haul_services` (`customer_id`,`location_id`,`status`,`scheduled_date`);--> statement-breakpoint
CREATE INDEX `haul_services_renter_idx` ON `haul_services` (`customer_id`,`renter_id`);--> statement-breakpoint
CREATE INDEX `haul_services_reservation_idx` ON `haul_services` (`customer_id`,`reservation_id`);--> statement-breakpoint
CREATE TABLE `slip_waitlist_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`renter_id` text NOT NULL,
	`renter` text NOT NULL,
	`boat` text NOT NULL,
	`unit_type` text,
	`section` text,
	`preferred_slip_id` text,
	`rate_type` text NOT NULL,
	`arrival_date` text,
	`departure_date` text,
	`season` text,
	`status` text NOT NULL,
	`position` integer NOT NULL,
	`source` text DEFAULT 'staff' NOT NULL,
	`notes` text,
	`offer_count` integer DEFAULT 0 NOT NULL,
	`decline_count` integer DEFAULT 0 NOT NULL,
	`accepted_reservation_id` text,
	`accepted_at` text,
	`cancelled_at` text,
	`cancel_reason` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `slip_waitlist_queue_idx` ON `slip_waitlist_entries` (`customer_id`,`location_id`,`status`,`position`);--> statement-breakpoint
CREATE INDEX `slip_waitlist_renter_idx` ON `slip_waitlist_entries` (`customer_id`,`renter_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `slip_waitlist_open_entry_uq` ON `slip_waitlist_entries` (`customer_id`,`location_id`,`renter_id`,`rate_type`) WHERE status IN ('waiting', 'offered');--> statement-breakpoint
CREATE TABLE `slip_waitlist_offers` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`entry_id` text NOT NULL,
	`slip_id` text NOT NULL,
	`reservation_id` text NOT NULL,
	`arrival_date` text NOT NULL,
	`departure_date` text NOT NULL,
	`rate_type` text NOT NULL,
	`status` text NOT NULL,
	`expires_at` integer NOT NULL,
	`total_cents` integer NOT NULL,
	`message` text,
	`responded_at` text,
	`response_note` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `slip_waitlist_open_offer_uq` ON `slip_waitlist_offers` (`entry_id`) WHERE status = 'offered';--> statement-breakpoint
CREATE INDEX `slip_waitlist_offers_entry_idx` ON `slip_waitlist_offers` (`customer_id`,`entry_id`);--> statement-breakpoint
CREATE INDEX `slip_waitlist_offers_slip_idx` ON `slip_waitlist_offers` (`customer_id`,`slip_id`,`status`);--> statement-breakpoint
CREATE INDEX `slip_waitlist_offers_due_idx` ON `slip_waitlist_offers` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `slip_guest_passes` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`reservation_id` text NOT NULL,
	`slip_id` text NOT NULL,
	`renter_id` text NOT NULL,
	`guest_name` text NOT NULL,
	`guest_email` text,
	`guest_phone` text,
	`vehicle_plate` text,
	`access_code` text NOT NULL,
	`valid_from` text NOT NULL,
	`valid_until` text NOT NULL,
	`permissions` text NOT NULL,
	`id_required` integer DEFAULT false NOT NULL,
	`status` text NOT NULL,
	`revoked_at` text,
	`revoked_reason` text,
	`id_verified` integer DEFAULT false NOT NULL,
	`id_verified_at` text,
	`id_verified_by` text,
	`id_type` text,
	`check_in_count` integer DEFAULT 0 NOT NULL,
	`last_check_in_at` text,
	`created_via` text DEFAULT 'staff' NOT NULL,
	`notes` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `slip_guest_pass_code_uq` ON `slip_guest_passes` (`customer_id`,`access_code`) WHERE status = 'active';--> statement-breakpoint
CREATE INDEX `slip_guest_pass_location_idx` ON `slip_guest_passes` (`customer_id`,`location_id`,`status`);--> statement-breakpoint
CREATE INDEX `slip_guest_pass_reservation_idx` ON `slip_guest_passes` (`customer_id`,`reservation_id`);--> statement-breakpoint
CREATE INDEX `slip_guest_pass_due_idx` ON `slip_guest_passes` (`status`,`valid_until`);--> statement-breakpoint
CREATE TABLE `slip_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`reservation_id` text NOT NULL,
	`renter_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`file_name` text,
	`content_type` text,
	`size_bytes` integer,
	`sha256` text,
	`r2_key` text,
	`expires_on` text,
	`notes` text,
	`uploaded_via` text NOT NULL,
	`upload_token_hash` text,
	`upload_expires_at` integer,
	`declared_size_bytes` integer,
	`reviewed_at` text,
	`reviewed_by` text,
	`review_note` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `slip_documents_reservation_idx` ON `slip_documents` (`customer_id`,`reservation_id`);--> statement-breakpoint
CREATE INDEX `slip_documents_status_idx` ON `slip_documents` (`customer_id`,`status`);--> statement-breakpoint
CREATE TABLE `slip_uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`renter_id` text NOT NULL,
	`r2_key` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`attached_document_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `slip_uploads_renter_idx` ON `slip_uploads` (`customer_id`,`renter_id`);--> statement-breakpoint
CREATE INDEX `slip_uploads_created_idx` ON `slip_uploads` (`created_at`);--> statement-breakpoint
CREATE TABLE `slip_portal_links` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`renter_id` text NOT NULL,
	`email` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` text,
	`session_id` text,
	`requested_via` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `slip_portal_links_token_uq` ON `slip_portal_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `slip_portal_links_renter_idx` ON `slip_portal_links` (`customer_id`,`renter_id`);--> statement-breakpoint
CREATE TABLE `slip_portal_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`renter_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` text,
	`last_seen_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `slip_portal_sessions_token_uq` ON `slip_portal_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `slip_portal_sessions_renter_idx` ON `slip_portal_sessions` (`customer_id`,`renter_id`);--> statement-breakpoint
CREATE TABLE `slip_public_bookings` (
	`reservation_id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `meter_readings` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`slip_id` text NOT NULL,
	`utility` text NOT NULL,
	`meter_id` text,
	`reading` real NOT NULL,
	`digits` integer NOT NULL,
	`read_at` text NOT NULL,
	`previous_reading_id` text,
	`previous_value` real,
	`usage` real,
	`rollover` integer DEFAULT false NOT NULL,
	`flagged` integer DEFAULT false NOT NULL,
	`flag_reasons` text NOT NULL,
	`reviewed_at` text,
	`reviewed_by` text,
	`billed` integer DEFAULT false NOT NULL,
	`billed_at` text,
	`billing_id` text,
	`billing_reference` text,
	`reservation_id` text,
	`charged_cents` integer,
	`notes` text,
	`read_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `meter_readings_unit_idx` ON `meter_readings` (`customer_id`,`slip_id`,`utility`,`read_at`);--> statement-breakpoint
CREATE INDEX `meter_readings_location_idx` ON `meter_readings` (`customer_id`,`location_id`,`billed`,`read_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `meter_readings_chain_uq` ON `meter_readings` (`customer_id`,`slip_id`,`utility`,`previous_reading_id`);