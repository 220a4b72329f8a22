ALTER TABLE `grants` ADD `match` text DEFAULT 'legacy' NOT NULL;--> statement-breakpoint
ALTER TABLE `grants` ADD `scope_hash` text;