import { defineConfig } from "drizzle-kit";

// Only `drizzle-kit generate` uses this; migrations are applied from code (db/migrate.ts) for both backends.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema.ts",
  out: "./db/migrations",
});
