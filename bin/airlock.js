#!/usr/bin/env node
// Older hook and MCP registrations name bin/airlock.js: it runs the same command as bin/airlock.cjs.
import "./airlock.cjs";
