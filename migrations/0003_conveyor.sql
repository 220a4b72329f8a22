CREATE TABLE `artifacts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`content_type` text NOT NULL,
	`content` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer NOT NULL,
	`proposal_id` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `artifacts_user_idx` ON `artifacts` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `hooks` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`action` text,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_until` integer,
	`created_at` integer NOT NULL,
	`rotated_at` integer,
	`deleted_at` integer,
	`created_by_device` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `hooks_user_idx` ON `hooks` (`user_id`);--> statement-breakpoint
CREATE TABLE `idempotency` (
	`owner_id` text NOT NULL,
	`tool_name` text NOT NULL,
	`key` text NOT NULL,
	`args_hash` text NOT NULL,
	`state` text NOT NULL,
	`attempt` integer NOT NULL,
	`lease_until` integer NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`result` text,
	`result_hash` text,
	PRIMARY KEY(`owner_id`, `tool_name`, `key`)
);
--> statement-breakpoint
CREATE TABLE `memory_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`topic` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	`proposal_id` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `memory_notes_user_idx` ON `memory_notes` (`user_id`,`topic`,`created_at`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	`read_at` integer,
	`proposal_id` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `proposed_actions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`tool` text NOT NULL,
	`identity` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`args_hash` text NOT NULL,
	`args` text NOT NULL,
	`risk_class` text NOT NULL,
	`justification` text NOT NULL,
	`summary` text NOT NULL,
	`source_kind` text NOT NULL,
	`source_ref` text,
	`state` text NOT NULL,
	`gate` text NOT NULL,
	`prompt_id` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`decided_at` integer,
	`decided_by` text,
	`finished_at` integer,
	`envelope` text,
	`created_by_device` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `proposed_actions_key_idx` ON `proposed_actions` (`user_id`,`tool`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `proposed_actions_state_idx` ON `proposed_actions` (`user_id`,`state`,`created_at`);--> statement-breakpoint
CREATE INDEX `proposed_actions_expiry_idx` ON `proposed_actions` (`state`,`expires_at`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`hook_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`received_at` integer NOT NULL,
	`payload_hash` text NOT NULL,
	`proposal_id` text,
	PRIMARY KEY(`hook_id`, `webhook_id`)
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_at_idx` ON `webhook_deliveries` (`received_at`);