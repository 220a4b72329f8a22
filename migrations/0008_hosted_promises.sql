ALTER TABLE `proposed_actions` ADD `gate_reason` text;
--> statement-breakpoint
ALTER TABLE `turns` ADD `outcome` text;
