import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./src/edge/db/schema.ts",
  out: "./migrations",
});
