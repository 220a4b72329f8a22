ALTER TABLE `devices` ADD `role` text DEFAULT 'companion' NOT NULL;--> statement-breakpoint
ALTER TABLE `pairing_codes` ADD `role` text DEFAULT 'companion' NOT NULL;--> statement-breakpoint
ALTER TABLE `pairing_codes` ADD `bucket` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `recovery_hash` text;--> statement-breakpoint
ALTER TABLE `users` ADD `recovery_created_at` integer;--> statement-breakpoint
-- Browsers were paired by the person from the dashboard: they become approvers; companions stay companions.
UPDATE `devices` SET `role` = 'approver' WHERE `kind` = 'browser';
