ALTER TABLE `customers` ADD `message_template_keys` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
UPDATE `customers` SET `message_template_keys` = (SELECT coalesce(json_group_array(`key`), '[]') FROM (SELECT DISTINCT `key` FROM `message_templates` WHERE `message_templates`.`customer_id` = `customers`.`id`));
