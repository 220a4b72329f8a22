CREATE TABLE `idempotent_targets` (
	`user_id` text NOT NULL,
	`tool` text NOT NULL,
	`target` text NOT NULL,
	`created_at` integer NOT NULL,
	`created_by_device` text,
	PRIMARY KEY(`user_id`, `tool`, `target`)
);
--> statement-breakpoint
ALTER TABLE `proposed_actions` ADD `gate_reason` text;--> statement-breakpoint
ALTER TABLE `turns` ADD `outcome` text;