ALTER TABLE `proposed_actions` ADD `gate_reason` text;
