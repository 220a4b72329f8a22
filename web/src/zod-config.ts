// Imported first by validators.ts, and in zod's own chunk (manualChunks in vite.config.ts): zod decides at schema
// construction whether to compile parsers with `new Function`; the dashboard's CSP forbids eval, so turn that off
// before any src/protocol schema is built.
import { z } from "zod";

z.config({ jitless: true });
