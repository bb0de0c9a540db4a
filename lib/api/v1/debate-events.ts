import { debateEventStream } from "@/lib/debate/event-stream";
import { bearerToken, resolveBearer } from "@/lib/auth/api-tokens";
import { watchApiToken } from "@/lib/auth/api-token-watch";
import { getDebateStatus } from "@/db/queries/debate-run";
import { ApiError, endpoint } from "../endpoint";
import { uuidParam } from "./common";
import { DEBATE_EVENTS, STREAM_EVENTS, WITHHELD_FROM_LABELLERS, streamMessageSchema } from "@/lib/debate/event-schema";

/** The stream in words, from the schemas that describe it (lib/debate/event-schema.ts). */
function streamDescription(): string {
  const list = (events: Record<string, { meaning: string }>) =>
    Object.entries(events)
      .map(([name, e]) => `- \`${name}\`: ${e.meaning}`)
      .join("\n");
  return [
    "A `text/event-stream` of the debate from now to its end. When the debate has finished the last event is `end` and the stream closes (also at once, after the snapshot, for a debate that had already finished); a reconnect after `end` is answered 204 No Content, which stops a standard EventSource client. A client that loses the stream before `end` reconnects and gets a fresh snapshot (nothing is lost). Events:",
    list(STREAM_EVENTS),
    "A `debate` event's `data` is one of these, by its `type`:",
    list(DEBATE_EVENTS),
    WITHHELD_FROM_LABELLERS,
  ].join("\n\n");
}

export const debateEvents = endpoint({
  id: "debateEvents",
  method: "GET",
  path: "/api/v1/debates/{id}/events",
  tag: "Debates",
  summary: "Follow a debate live (server-sent events)",
  description: streamDescription(),
  params: uuidParam,
  responses: {
    200: {
      description:
        "Server-sent events, each an `event:` line naming it and a `data:` line with one JSON object (DebateStreamMessage lists each event's `data`).",
      contentType: "text/event-stream",
      schema: streamMessageSchema,
    },
    204: {
      description:
        "A reconnect (`Last-Event-ID: end`) to a debate that has finished: nothing more will come; a standard EventSource client stops.",
    },
  },
  async handle({ db, principal, params, request }) {
    if (!(await getDebateStatus(db, params.id)))
      throw new ApiError(
        404,
        "not_found",
        "There is no debate with this id; check the id your start request returned.",
      );
    // A stream opened with a token ends when the token is revoked or expires.
    const bearer = bearerToken(request);
    const resolved = bearer ? await resolveBearer(db, bearer) : null;
    const watch =
      bearer && resolved?.ok
        ? (end: (message: string) => void) => watchApiToken(db, bearer, resolved.tokenId, end)
        : undefined;
    return debateEventStream(db, request, params.id, principal, null, watch);
  },
});
