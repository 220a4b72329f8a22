ALTER TABLE `passkeys` ADD `rp_id` text;--> statement-breakpoint
ALTER TABLE `passkeys` ADD `origin` text;