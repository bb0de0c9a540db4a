import { debateEventStream } from "@/lib/debate/event-stream";
import { bearerToken, resolveBearer } from "@/lib/auth/api-tokens";
import { watchApiToken } from "@/lib/auth/api-token-watch";
import { getDebateStatus } from "@/db/queries/debates";
import { ApiError, endpoint } from "../endpoint";
import { uuidParam } from "./common";

export const debateEvents = endpoint({
  id: "debateEvents",
  method: "GET",
  path: "/api/v1/debates/{id}/events",
  tag: "Debates",
  summary: "Follow a debate live (server-sent events)",
  description:
    "A `text/event-stream`. The first event, `snapshot`, holds the debate so far (`debate`) and the text of turns in progress (`live`); then `debate` events carry each change (`turn-start`, `delta`, `turn-end`, `status`, ...). The stream ends when the debate finishes, or with a `revoked` event when the token is revoked or expires; a client that loses it reconnects and gets a fresh snapshot. Someone who may still label the debate gets no verdict or judging.",
  params: uuidParam,
  responses: {
    200: {
      description: "Server-sent events: `event: snapshot` then `event: debate`, each with one JSON object in `data`.",
      contentType: "text/event-stream",
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
