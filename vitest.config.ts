import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // Nothing in the test suite may reach the network; a configured key in .env must not leak in.
    env: {
      OPENAI_API_KEY: "",
      ANTHROPIC_API_KEY: "",
      DEFAULT_MODEL: "",
      ROLE_MODELS: "",
      WEB_SEARCH_PROVIDER: "",
      TAVILY_API_KEY: "",
      BRAVE_API_KEY: "",
    },
    setupFiles: ["tests/scratch-dir.ts"],
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/**/*.test.ts"], exclude: ["tests/integration/**"], testTimeout: 60_000 },
      },
      {
        extends: true,
        // One database per file, files one after another: PGlite is single-process and CPU-bound.
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/integration/global-setup.ts"],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
