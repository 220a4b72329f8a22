CREATE TABLE `oauth_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`device_id` text NOT NULL,
	`token_id` text NOT NULL,
	`provider` text NOT NULL,
	`identity` text NOT NULL,
	`scopes` text NOT NULL,
	`binding_hash` text NOT NULL,
	`key_id` text NOT NULL,
	`verifier_sealed` text NOT NULL,
	`redirect_uri` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `oauth_states_expiry_idx` ON `oauth_states` (`expires_at`);--> statement-breakpoint
CREATE TABLE `oauth_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`identity` text NOT NULL,
	`account` text NOT NULL,
	`scopes` text NOT NULL,
	`key_id` text NOT NULL,
	`access_token_sealed` text NOT NULL,
	`refresh_token_sealed` text,
	`access_expires_at` integer,
	`status` text DEFAULT 'active' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`last_used_at` integer,
	`last_refreshed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_tokens_owner_idx` ON `oauth_tokens` (`user_id`,`provider`,`identity`);