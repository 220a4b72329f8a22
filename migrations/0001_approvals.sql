CREATE TABLE `grants` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`agent_id` text NOT NULL,
	`capability` text NOT NULL,
	`scope_pattern` text,
	`version_range` text,
	`effect` text NOT NULL,
	`created_at` integer NOT NULL,
	`created_by_device` text,
	`prompt_id` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `grants_user_agent_idx` ON `grants` (`user_id`,`agent_id`,`capability`);--> statement-breakpoint
ALTER TABLE `audit_log` ADD `agent_id` text;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `decision` text;