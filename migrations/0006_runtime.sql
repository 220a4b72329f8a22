CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`instructions` text NOT NULL,
	`trigger_kind` text NOT NULL,
	`trigger_ref` text,
	`thread_id` text NOT NULL,
	`turn_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `jobs_user_idx` ON `jobs` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`thread_id` text NOT NULL,
	`user_id` text NOT NULL,
	`seq` integer NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`turn_id` text,
	`tool_calls` text,
	`tool_call_id` text,
	`tool_name` text,
	`untrusted` integer DEFAULT false NOT NULL,
	`client_message_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_thread_seq_idx` ON `messages` (`thread_id`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `messages_client_idx` ON `messages` (`thread_id`,`client_message_id`);--> statement-breakpoint
CREATE INDEX `messages_created_idx` ON `messages` (`created_at`);--> statement-breakpoint
CREATE TABLE `retention_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer NOT NULL,
	`removed` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `schedules` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`cron` text,
	`every_seconds` integer,
	`at_text` text,
	`at_ms` integer,
	`timezone` text NOT NULL,
	`anchor_at` integer NOT NULL,
	`task` text NOT NULL,
	`paused` integer DEFAULT false NOT NULL,
	`next_run_at` integer,
	`last_run_at` integer,
	`last_job_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `schedules_user_idx` ON `schedules` (`user_id`);--> statement-breakpoint
CREATE INDEX `schedules_next_idx` ON `schedules` (`next_run_at`);--> statement-breakpoint
CREATE TABLE `threads` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`job_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `threads_user_idx` ON `threads` (`user_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `turn_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`turn_id` text NOT NULL,
	`idx` integer NOT NULL,
	`model` text NOT NULL,
	`outcome` text NOT NULL,
	`tokens_in` integer NOT NULL,
	`tokens_out` integer NOT NULL,
	`cost_usd` real NOT NULL,
	`work_ms` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `turn_calls_turn_idx` ON `turn_calls` (`turn_id`);--> statement-breakpoint
CREATE TABLE `turn_proposals` (
	`proposal_id` text PRIMARY KEY NOT NULL,
	`turn_id` text NOT NULL,
	`idx` integer NOT NULL,
	`position` integer NOT NULL,
	`user_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `turn_proposals_turn_idx` ON `turn_proposals` (`turn_id`);--> statement-breakpoint
CREATE TABLE `turn_steps` (
	`turn_id` text NOT NULL,
	`idx` integer NOT NULL,
	`plan` text NOT NULL,
	`calls` text DEFAULT '[]' NOT NULL,
	`status` text NOT NULL,
	`call_count` integer NOT NULL,
	`tokens_in` integer NOT NULL,
	`tokens_out` integer NOT NULL,
	`tool_tokens` integer DEFAULT 0 NOT NULL,
	`work_ms` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`turn_id`, `idx`)
);
--> statement-breakpoint
CREATE INDEX `turn_steps_created_idx` ON `turn_steps` (`created_at`);--> statement-breakpoint
CREATE TABLE `turns` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`thread_id` text NOT NULL,
	`job_id` text,
	`kind` text NOT NULL,
	`state` text NOT NULL,
	`budgets` text NOT NULL,
	`tainted` integer DEFAULT false NOT NULL,
	`error` text,
	`result` text,
	`trigger_message_id` text NOT NULL,
	`cancel_requested_at` integer,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `turns_thread_idx` ON `turns` (`thread_id`,`state`);--> statement-breakpoint
CREATE INDEX `turns_job_idx` ON `turns` (`job_id`);--> statement-breakpoint
CREATE TABLE `wakeup_events` (
	`schedule_id` text NOT NULL,
	`due_at` integer NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`job_id` text,
	`fired_at` integer NOT NULL,
	PRIMARY KEY(`schedule_id`, `due_at`)
);
--> statement-breakpoint
CREATE INDEX `wakeup_events_fired_idx` ON `wakeup_events` (`fired_at`);--> statement-breakpoint
ALTER TABLE `notifications` ADD `kind` text DEFAULT 'proactive' NOT NULL;--> statement-breakpoint
ALTER TABLE `notifications` ADD `job_id` text;