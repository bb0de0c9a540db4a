import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A scripted OpenAI-compatible chat server on 127.0.0.1 for tests: every chat completion answers
 * `reply` (streamed when asked), and every request's Authorization header is recorded, so a test
 * sees which key the app sent. `status` other than 200 answers every request with that error.
 */
export async function startFakeChatServer(opts: { reply?: string; status?: number } = {}) {
  const reply = opts.reply ?? "OK";
  const authorizations: string[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      authorizations.push(String(req.headers.authorization ?? ""));
      if (opts.status && opts.status !== 200) {
        res.writeHead(opts.status, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "invalid api key", type: "invalid_request_error" } }));
        return;
      }
      const parsed = JSON.parse(body || "{}") as { stream?: boolean; model?: string };
      const base = { id: "chat-1", created: 0, model: parsed.model ?? "m" };
      const usage = { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 };
      if (!parsed.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            ...base,
            object: "chat.completion",
            choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }],
            usage,
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (c: unknown) =>
        res.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", ...(c as object) })}\n\n`);
      chunk({ choices: [{ index: 0, delta: { role: "assistant", content: reply }, finish_reason: null }] });
      chunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage });
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    authorizations,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
