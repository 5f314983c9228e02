-- Reseller channels move onto partner accounts (partner platform). Every existing channel gets the
-- partner account of its contact e-mail: one is created per e-mail that has none, active, without a
-- password (the partner sets one with POST /partners/password/forgot, or keeps using the portal token).
INSERT INTO `partner_accounts` (`id`, `email`, `name`, `company`, `password_hash`, `status`, `created_at`, `updated_at`)
SELECT 'ptn_' || upper(hex(randomblob(13))), lower(c.`contact_email`), min(c.`name`), NULL, NULL, 'active', min(c.`created_at`), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM `channels` c
WHERE c.`partner_account_id` IS NULL
  AND NOT EXISTS (SELECT 1 FROM `partner_accounts` p WHERE p.`email` = lower(c.`contact_email`))
GROUP BY lower(c.`contact_email`);
--> statement-breakpoint
UPDATE `channels`
SET `partner_account_id` = (SELECT p.`id` FROM `partner_accounts` p WHERE p.`email` = lower(`channels`.`contact_email`))
WHERE `partner_account_id` IS NULL;
