ALTER TABLE `grants` ADD `risk_class` text;--> statement-breakpoint
ALTER TABLE `grants` ADD `identity` text;